/**
 * The recording proxy of `mockrouter record` (issue 22): a `node:http` server that forwards each request to the
 * upstream gateway and answers with the upstream's status, headers and bytes as they come, keeping a copy of the
 * answers the recorder records (`recorder.ts`) to write them once they ended whole.
 *
 * Forwarding: method, path, query, body and headers as the client sent them (its `Authorization` included), the
 * hop-by-hop headers (RFC 9110, section 7.6.1: `Connection` and the headers it names, `Keep-Alive`,
 * `Proxy-Connection`, `Proxy-Authenticate`, `Proxy-Authorization`, `TE`, `Trailer`, `Transfer-Encoding`,
 * `Upgrade`) dropped, `Host` the upstream's; nothing added. The answer's hop-by-hop headers are dropped the same way
 * (Node frames the body again: chunked when the upstream sent no `Content-Length`). The bytes go through as sent,
 * compressed when they were; what is recorded is the decoded body (`Content-Encoding` undone).
 *
 * @module
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { errorResponse } from '../core/http/error-envelope.js';
import { isSecretHeader, isSecretParam, redactUrl } from '../core/http/redact.js';
import type { RecordedFolder } from './recorded-folder.js';
import { keepsRequestBody, recordExchange, recordedOperation } from './recorder.js';

/** Where the proxy forwards to: `origin` plus `prefix` (a path without trailing slash, `''` for none). */
export interface Upstream {
  /** `http://host:port` or `https://host`. */
  origin: string;
  /** Path put before each request's path (`/prefix`), `''` when none. */
  prefix: string;
}

/** What the proxy logs: one entry per request, and warnings. pino's `Logger` is one. */
export interface RecorderLogger {
  info(entry: object, message?: string): void;
  warn(entry: object, message?: string): void;
}

/** Options of {@link createRecordingProxy}. */
export interface ProxyOptions {
  upstream: Upstream;
  folder: RecordedFolder;
  /** Most bytes of one answer (or speech request) kept for recording; longer ones are forwarded, not recorded. */
  maxRecordBytes: number;
  logger?: RecorderLogger | undefined;
}

/** Hop-by-hop header names, lower-case, dropped both ways (see the module's description). `Host` is set apart. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A `node:http` server that forwards to `options.upstream` and records into `options.folder`. Call `close()` on
 * the returned value (once or more) to stop it: it drops open connections and the kept upstream ones, then
 * resolves once the recordings of the answers that had ended are written.
 */
export function createRecordingProxy(options: ProxyOptions): { server: http.Server; close(): Promise<void> } {
  const { upstream, folder, maxRecordBytes, logger } = options;
  const target = new URL(upstream.origin);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => forward(req, res));
  const pending = new Set<Promise<unknown>>();

  function forward(req: IncomingMessage, res: ServerResponse): void {
    const started = Date.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    const method = req.method ?? 'GET';
    const operation = recordedOperation(method, path);
    const secrets = secretsOf(req, query);
    const logged = { method, url: redactUrl(url) };
    const about = `${logged.method} ${logged.url}`;

    const headers: string[] = [];
    const dropped = droppedNames(req.headers.connection);
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const lower = name.toLowerCase();
      if (lower === 'host' || dropped.has(lower)) continue;
      headers.push(name, req.rawHeaders[i + 1]!);
    }
    headers.push('Host', target.host);

    const upstreamReq = client.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method,
      path: upstream.prefix + url,
      headers,
      agent,
    });

    let requestBody: Buffer[] | undefined = keepsRequestBody(operation) ? [] : undefined;
    let requestBytes = 0;
    req.on('data', (chunk: Buffer) => {
      if (requestBody === undefined) return;
      requestBytes += chunk.length;
      if (requestBytes > maxRecordBytes) requestBody = undefined;
      else requestBody.push(chunk);
    });
    req.pipe(upstreamReq);

    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const code = error.code ?? error.message;
      const answer = errorResponse(502, {
        message: `mockrouter record: the upstream ${upstream.origin}${upstream.prefix} could not be reached (${code})`,
        metadata: { error_type: 'provider_unavailable', upstream: `${upstream.origin}${upstream.prefix}` },
      });
      res.writeHead(answer.status, answer.headers as Record<string, string>);
      res.end(answer.body as string);
      logger?.info({ ...logged, status: 502, ms: Date.now() - started }, 'request');
      logger?.warn({ upstream_error: code }, `${about}: the upstream could not be reached (${code}); answered 502, nothing recorded`);
    });

    let clientGone = false;
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstreamReq.destroy();
    });

    upstreamReq.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const out: string[] = [];
      const droppedOut = droppedNames(answer.headers.connection);
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = answer.rawHeaders[i]!;
        if (!droppedOut.has(name.toLowerCase())) out.push(name, answer.rawHeaders[i + 1]!);
      }
      res.writeHead(status, answer.statusMessage, out);

      let kept: Buffer[] | undefined = operation !== undefined && (status === 200 || status >= 400) ? [] : undefined;
      let keptBytes = 0;
      answer.on('data', (chunk: Buffer) => {
        if (kept === undefined) return;
        keptBytes += chunk.length;
        if (keptBytes > maxRecordBytes) {
          kept = undefined;
          logger?.warn({ limit_bytes: maxRecordBytes }, `${about}: answer longer than ${maxRecordBytes} bytes; forwarded, not recorded`);
        } else kept.push(chunk);
      });
      answer.on('aborted', () => res.destroy());
      answer.on('error', () => res.destroy());
      answer.pipe(res);

      answer.on('close', () => {
        const entry = { ...logged, status, ms: Date.now() - started };
        logger?.info(answer.complete ? entry : { ...entry, closed_early: true }, 'request');
        if (!answer.complete) {
          logger?.warn({}, `${about}: answer cut short (${clientGone ? 'the client closed' : 'by the upstream'}); not recorded`);
          return;
        }
        if (kept === undefined) return;
        let body: Buffer;
        try {
          body = decoded(Buffer.concat(kept), headerText(answer.headers['content-encoding']), maxRecordBytes);
        } catch (error) {
          logger?.warn({}, `${about}: the answer's Content-Encoding could not be decoded (${error instanceof Error ? error.message : String(error)}); not recorded`);
          return;
        }
        kept = undefined;
        const job = recordExchange(
          {
            method,
            path,
            query,
            requestBody: requestBody === undefined ? undefined : Buffer.concat(requestBody),
            status,
            contentType: headerText(answer.headers['content-type']),
            retryAfter: answer.headers['retry-after'] === undefined ? undefined : headerText(answer.headers['retry-after']),
            body,
            secrets,
          },
          folder,
        ).then(
          (written) => {
            for (const line of written) logger?.info({ recorded: line }, `${about}: ${line}`);
          },
          (error: unknown) => logger?.warn({}, `${about}: recording failed: ${error instanceof Error ? error.message : String(error)}`),
        );
        pending.add(job);
        void job.finally(() => pending.delete(job));
      });
    });
  }

  let closed: Promise<void> | undefined;
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    agent.destroy();
    while (pending.size > 0) await Promise.allSettled([...pending]);
    await folder.idle();
  };
  return { server, close: () => (closed ??= close()) };
}

/**
 * `body` with its `Content-Encoding` undone (`gzip`, `x-gzip`, `deflate`, `br`, in the order listed, last first;
 * `identity` or none: as is), so a compressed answer is recorded as what the client reads.
 *
 * @throws for an unknown coding, bytes that do not decode, or a decoded body longer than `maxBytes`.
 */
function decoded(body: Buffer, contentEncoding: string, maxBytes: number): Buffer {
  const codings = contentEncoding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let out = body;
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out, { maxOutputLength: maxBytes });
    else if (coding === 'deflate') out = inflateSync(out, { maxOutputLength: maxBytes });
    else if (coding === 'br') out = brotliDecompressSync(out, { maxOutputLength: maxBytes });
    else throw new Error(`unknown coding "${coding}"`);
  }
  return out;
}

/** The hop-by-hop names plus those a `Connection` header lists. */
function droppedNames(connection: string | undefined): Set<string> {
  const names = new Set(HOP_BY_HOP);
  for (const name of (connection ?? '').split(',')) if (name.trim() !== '') names.add(name.trim().toLowerCase());
  return names;
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/**
 * The credential values a request carries: each secret header's value (`src/core/http/redact.ts`), a bearer's
 * token alone too, and the values of secret query parameters. The recorder never writes an answer holding one.
 */
function secretsOf(req: IncomingMessage, query: string): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || !isSecretHeader(name)) continue;
    for (const text of Array.isArray(value) ? value : [value]) {
      secrets.push(text);
      const bearer = /^bearer\s+(.+)$/i.exec(text.trim());
      if (bearer?.[1]) secrets.push(bearer[1].trim());
    }
  }
  for (const [name, value] of new URLSearchParams(query)) if (isSecretParam(name) && value !== '') secrets.push(value);
  return secrets;
}
