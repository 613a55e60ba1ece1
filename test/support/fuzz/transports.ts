/**
 * The two ways the fuzz suites send a generated request: `fetch` through msw's interception (in-process; the URL
 * parser normalizes the target first) and `node:http` against the standalone server with the raw target on the
 * wire (no normalization). Both read the whole answer or report why they could not.
 *
 * @module
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { MSW_ORIGIN, REQUEST_TIMEOUT_MS } from './settings.js';
import { utf8, type FuzzRequest } from './request.js';

/** What the simulator sees of a request's URL: the path (raw, percent-encoded) and the query (no `?`). */
export interface Seen {
  path: string;
  query: string;
}

/** What came back: an answer (its body cut short when `bodyError` is set), a network error, or nothing in time. */
export type Outcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Uint8Array; bodyError?: string | undefined }
  | { kind: 'network'; error: string }
  | { kind: 'timeout'; error: string };

/** A way to send requests: `mode` names the simulator it reaches; `seen` is what that simulator sees of the URL. */
export interface Transport {
  mode: 'msw' | 'server';
  seen(req: FuzzRequest): Seen;
  send(req: FuzzRequest): Promise<Outcome>;
}

/** One line naming an error: its name, code, message and causes. */
export function errorText(error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string; cause?: unknown };
  const cause = e?.cause ? ` (cause: ${errorText(e.cause)})` : '';
  return `${e?.name ?? 'Error'}${e?.code ? ` ${e.code}` : ''}: ${e?.message ?? String(error)}${cause}`;
}

/** Whether `error` is an abort by the request's timeout signal. */
const isTimeout = (error: unknown): boolean => {
  const name = (error as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError';
};

/**
 * In-process: `fetch` to `origin` (msw answers it), with {@link REQUEST_TIMEOUT_MS} for the answer and its body.
 * The URL parser normalizes the target first. Never rejects: failures come back as an {@link Outcome}.
 */
export function fetchTransport(origin = MSW_ORIGIN): Transport {
  return {
    mode: 'msw',
    seen(req) {
      const url = new URL(origin + req.target);
      return { path: url.pathname, query: url.search.slice(1) };
    },
    async send(req) {
      const headers = new Headers();
      for (const [name, value] of req.headers) headers.append(name, value);
      const init: RequestInit = { method: req.method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: 'manual' };
      if (req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD') init.body = req.body as Uint8Array<ArrayBuffer>;
      let res: Response;
      try {
        res = await fetch(origin + req.target, init);
      } catch (error) {
        return isTimeout(error) ? { kind: 'timeout', error: errorText(error) } : { kind: 'network', error: errorText(error) };
      }
      const out: Record<string, string> = {};
      res.headers.forEach((value, name) => (out[name] = value));
      try {
        return { kind: 'response', status: res.status, headers: out, body: new Uint8Array(await res.arrayBuffer()) };
      } catch (error) {
        if (isTimeout(error)) return { kind: 'timeout', error: `body: ${errorText(error)}` };
        return { kind: 'response', status: res.status, headers: out, body: new Uint8Array(0), bodyError: errorText(error) };
      }
    },
  };
}

/**
 * Percent-encodes what may not appear raw in an HTTP/1.1 request target (anything outside printable ASCII), as a
 * client's URL parser would (UTF-8; a lone surrogate becomes U+FFFD). Everything else, `..`, `//`, `%zz`, `#`,
 * `"`, goes on the wire as it is. (Raw bytes ≥ 0x80 are malformed HTTP: the raw-socket fuzz covers those.)
 */
export function rawTarget(target: string): string {
  let out = '';
  for (const ch of target) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x21 && code <= 0x7e) out += ch;
    else for (const byte of utf8.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Node's response headers, repeated ones joined by `, ` (as fetch joins them). */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Standalone: `node:http` to `127.0.0.1:port` with the raw target (no normalization), keep-alive (four sockets;
 * `close()` destroys them), optional chunked body, {@link REQUEST_TIMEOUT_MS} for the answer and its body. Never
 * rejects: failures come back as an {@link Outcome}.
 */
export function httpTransport(port: number): Transport & { close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  return {
    mode: 'server',
    close: () => agent.destroy(),
    seen(req) {
      const target = rawTarget(req.target);
      const q = target.indexOf('?');
      return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
    },
    send(req) {
      return new Promise<Outcome>((resolve) => {
        let settled = false;
        const done = (outcome: Outcome) => {
          if (!settled) {
            settled = true;
            resolve(outcome);
          }
        };
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of req.headers) {
          const key = name.toLowerCase();
          const prev = headers[key];
          headers[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
        }
        const body = req.body;
        // Node frames bodies of GET, DELETE, OPTIONS... only when told: say how, always.
        if (body !== undefined) headers[req.chunked ? 'transfer-encoding' : 'content-length'] = req.chunked ? 'chunked' : String(body.byteLength);
        const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        let response: { status: number; headers: Record<string, string>; chunks: Buffer[] } | undefined;
        const client = httpRequest({ host: '127.0.0.1', port, method: req.method, path: rawTarget(req.target), headers, agent, signal }, (res) => {
          response = { status: res.statusCode ?? 0, headers: flatHeaders(res.headers), chunks: [] };
          const r = response;
          res.on('data', (chunk: Buffer) => r.chunks.push(chunk));
          res.on('end', () => done({ kind: 'response', status: r.status, headers: r.headers, body: new Uint8Array(Buffer.concat(r.chunks)) }));
          res.on('error', (error) =>
            done(isTimeout(error) ? { kind: 'timeout', error: `body: ${errorText(error)}` } : { kind: 'response', status: r.status, headers: r.headers, body: new Uint8Array(Buffer.concat(r.chunks)), bodyError: errorText(error) }),
          );
        });
        client.on('error', (error) => {
          if (isTimeout(error)) done({ kind: 'timeout', error: errorText(error) });
          else if (response) done({ kind: 'response', status: response.status, headers: response.headers, body: new Uint8Array(Buffer.concat(response.chunks)), bodyError: errorText(error) });
          else done({ kind: 'network', error: errorText(error) });
        });
        if (body === undefined) client.end();
        else if (req.chunked) {
          const half = Math.floor(body.byteLength / 2);
          client.write(body.subarray(0, half));
          client.end(body.subarray(half));
        } else client.end(body);
      });
    },
  };
}

