/**
 * The recording proxy of `mockrouter record`: a `node:http` server that forwards each request to the
 * upstream gateway and answers with the upstream's status, headers and bytes as they come, keeping a copy of the
 * answers the recorder records (`recorder.ts`) to write them once they ended whole.
 *
 * Forwarding: method, path, query, body and headers as the client sent them (its `Authorization` included), the
 * hop-by-hop headers (RFC 9110, section 7.6.1) dropped, `Host` the upstream's, and a `Via` entry of this recorder's
 * added (`recording-loop.ts`: a request that comes back is answered 508, not forwarded again). The answer's head
 * goes through `answer-head.ts` (hop-by-hop headers dropped; Node frames the body again: chunked when the upstream
 * sent no `Content-Length`). The bytes go through as sent, compressed when they were; what is recorded is the
 * decoded body (`Content-Encoding` undone).
 *
 * The upstream is not trusted: an answer head HTTP cannot pass on (`answer-head.ts`, a `101`) is answered 502;
 * no answer head within `upstreamTimeoutMs` is answered 504; no body bytes for `upstreamTimeoutMs` once the answer
 * started cuts it (not recorded). Each is one warning in the log, and the requests beside it go on. These answers
 * are the recorder's own (`own-answers.ts`), never recorded, and neither is an answer carrying their header.
 *
 * @module
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { isSecretHeader, isSecretParam, redactUrl } from '../core/http/redact.js';
import { droppedNames } from './answer-head.js';
import { MIN_CREDENTIAL_LENGTH } from './credential-forms.js';
import { sendOwnAnswer, type OwnAnswerReason } from './own-answers.js';
import { passAnswer, type RecorderLogger } from './proxied-answer.js';
import type { RecordedFolder } from './recorded-folder.js';
import { keepsRequestBody, recordedOperation } from './recorder.js';
import { keptRequestBytes } from './transcript-answers.js';
import { cameBack } from './recording-loop.js';
import type { Upstream } from './upstream.js';
import { InFlight, STOP_DRAIN_MS } from './in-flight.js';

export type { RecorderLogger } from './proxied-answer.js';

/** Options of {@link createRecordingProxy}. */
export interface ProxyOptions {
  upstream: Upstream;
  folder: RecordedFolder;
  /**
   * Most bytes of one answer (or speech request) kept for recording; longer ones are forwarded, not recorded. A
   * transcription's request is kept up to 64 MiB at least (`keptRequestBytes` of `transcript-answers.ts`).
   */
  maxRecordBytes: number;
  /** Longest wait, ms, for the upstream's answer head, and for each chunk of its body once it started. */
  upstreamTimeoutMs: number;
  /** This recorder's `Via` pseudonym (`viaName()` of `recording-loop.ts`). */
  via: string;
  logger?: RecorderLogger | undefined;
}

/**
 * A `node:http` server that forwards to `options.upstream` and records into `options.folder`. Call `close()` on
 * the returned value (once or more) to stop it: it stops taking connections, lets the answers under way end (at most
 * {@link STOP_DRAIN_MS}; past it they are cut, logged as cut by the recorder stopping, and not recorded), drops the
 * kept upstream connections, then resolves once the recordings of the answers that had ended are written.
 */
export function createRecordingProxy(options: ProxyOptions): { server: http.Server; close(): Promise<void> } {
  const { upstream, folder, maxRecordBytes, upstreamTimeoutMs, via, logger } = options;
  const shown = `${upstream.origin}${upstream.prefix}`;
  const target = new URL(upstream.origin);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => forward(req, res));
  const pending = new Set<Promise<unknown>>();
  const state = { folder, maxRecordBytes, upstreamTimeoutMs, logger, pending };
  const inFlight = new InFlight();
  /** Whether `close()` was called: an answer cut from then on was cut by the recorder stopping. */
  let stopping = false;

  function forward(req: IncomingMessage, res: ServerResponse): void {
    inFlight.track(res);
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

    /** Whether the client closed the connection before the answer ended. */
    let clientGone = false;
    /** Answers the recorder's own envelope (once), logs the request and one warning; nothing once the client left. */
    let failed = false;
    const fail = (reason: OwnAnswerReason, message: string, warning: string) => {
      if (failed) return;
      failed = true;
      if (clientGone) return;
      const status = sendOwnAnswer(res, reason, `mockrouter record: ${message}`, shown);
      logger?.info({ ...logged, status: status ?? 'cut', ms: Date.now() - started }, 'request');
      logger?.warn({ upstream_problem: reason }, `${about}: ${warning}`);
    };

    if (cameBack(req.headers.via, via)) {
      req.resume();
      fail('loop', `the request came back to this recorder: --upstream ${shown} forwards to it`, `the request came back to this recorder (--upstream ${shown} forwards to it); answered 508, not forwarded`);
      return;
    }

    const headers: string[] = [];
    const dropped = droppedNames(req.headers.connection);
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      const lower = name.toLowerCase();
      if (lower === 'host' || dropped.has(lower)) continue;
      headers.push(name, req.rawHeaders[i + 1]!);
    }
    headers.push('Host', target.host, 'Via', `1.1 ${via}`);

    let upstreamReq: http.ClientRequest;
    try {
      upstreamReq = client.request({ protocol: target.protocol, hostname: target.hostname, port: target.port, method, path: upstream.prefix + url, headers, agent });
    } catch (error) {
      req.resume();
      const code = (error as NodeJS.ErrnoException).code ?? 'an invalid request';
      fail('unreachable', `the request could not be forwarded to ${shown} (${code})`, `the request could not be forwarded (${code}); answered 502, nothing recorded`);
      return;
    }

    // The wait for the answer head starts again at each chunk of the request body (the client's pace, not the
    // upstream's), and stops at the head.
    const headTimer = setTimeout(() => {
      clearTimeout(headTimer);
      upstreamReq.destroy();
      fail('timeout', `the upstream ${shown} sent no answer within ${upstreamTimeoutMs} ms`, `no answer head within ${upstreamTimeoutMs} ms (--upstream-timeout); answered 504, nothing recorded`);
    }, upstreamTimeoutMs);

    let requestBody: Buffer[] | undefined = keepsRequestBody(operation) ? [] : undefined;
    let requestBytes = 0;
    const requestLimit = keptRequestBytes(operation, maxRecordBytes);
    req.on('data', (chunk: Buffer) => {
      headTimer.refresh();
      if (requestBody === undefined) return;
      requestBytes += chunk.length;
      if (requestBytes > requestLimit) requestBody = undefined;
      else requestBody.push(chunk);
    });
    req.pipe(upstreamReq);

    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(headTimer);
      const code = error.code ?? 'an error';
      // Node's parser names what it could not read: bytes that are no HTTP answer (HPE_INVALID_HEADER_TOKEN, ...).
      if (code.startsWith('HPE_')) fail('invalid-answer', `the upstream ${shown} answered bytes that are no HTTP answer (${code})`, `the upstream answered bytes that are no HTTP answer (${code}); answered 502, nothing recorded`);
      else fail('unreachable', `the upstream ${shown} could not be reached (${code})`, `the upstream could not be reached (${code}); answered 502, nothing recorded`);
    });
    // A 101 with `Upgrade`: Node hands over the socket, and no answer follows.
    upstreamReq.on('upgrade', (_answer, socket) => {
      clearTimeout(headTimer);
      socket.destroy();
      fail('invalid-answer', `the upstream ${shown} answered 101 Switching Protocols`, 'the upstream answered 101 Switching Protocols, no answer of the API; answered 502, nothing recorded');
    });
    // The connection closed with neither an answer nor an error.
    let answered = false;
    upstreamReq.on('close', () => {
      clearTimeout(headTimer);
      if (!answered) fail('unreachable', `the upstream ${shown} closed the connection without an answer`, 'the upstream closed the connection without an answer; answered 502, nothing recorded');
    });

    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      clearTimeout(headTimer);
      upstreamReq.destroy();
    });

    upstreamReq.on('response', (answer) => {
      answered = true;
      clearTimeout(headTimer);
      if (failed) {
        answer.destroy();
        return;
      }
      passAnswer(
        answer,
        {
          req,
          res,
          method,
          path,
          query,
          operation,
          secrets,
          logged,
          about,
          started,
          fail,
          clientGone: () => clientGone,
          stopping: () => stopping,
          body: () => (requestBody === undefined ? undefined : Buffer.concat(requestBody)),
        },
        state,
        shown,
      );
    });
  }

  let closed: Promise<void> | undefined;
  // Stops taking connections, lets the answers under way end (at most STOP_DRAIN_MS), then cuts what is left.
  const close = async () => {
    stopping = true;
    const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (inFlight.count > 0) logger?.warn({ answers: inFlight.count }, `stopping: waiting for ${inFlight.count} answer(s) under way to end (at most ${STOP_DRAIN_MS} ms)`);
    const drained = await inFlight.drained(STOP_DRAIN_MS, () => server.closeIdleConnections());
    if (!drained) logger?.warn({ answers: inFlight.count }, `stopping: ${inFlight.count} answer(s) still under way after ${STOP_DRAIN_MS} ms are cut and not recorded`);
    server.closeAllConnections();
    await listenerClosed;
    agent.destroy();
    while (pending.size > 0) await Promise.allSettled([...pending]);
    await folder.idle();
  };
  return { server, close: () => (closed ??= close()) };
}

/**
 * The credential values a request carries: each secret header's value (`src/core/http/redact.ts`; a bearer's
 * token alone in place of `Bearer <token>`), and the values of secret query parameters. The recorder never writes
 * a value holding one (`credential-forms.ts`).
 */
function secretsOf(req: IncomingMessage, query: string): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || !isSecretHeader(name)) continue;
    for (const text of Array.isArray(value) ? value : [value]) {
      const bearer = /^bearer\s+(.+)$/i.exec(text.trim())?.[1]?.trim();
      // Any form of `Bearer <token>` holds the token's (base64 at one of its alignments): the token is enough.
      secrets.push(bearer !== undefined && bearer.length >= MIN_CREDENTIAL_LENGTH ? bearer : text);
    }
  }
  for (const [name, value] of new URLSearchParams(query)) if (isSecretParam(name) && value !== '') secrets.push(value);
  return secrets;
}
