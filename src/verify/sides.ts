/**
 * The two sides `mockrouter verify` asks (issue 22): the upstream over HTTP (`fetch`) and an in-process simulator
 * (`Gateway.handle`), behind one function type, so every probe is sent to both alike.
 *
 * @module
 */
import type { Gateway } from '../core/gateway.js';
import { API_PREFIX } from '../core/http/routes.js';
import type { CoreBody } from '../core/types.js';
import { redactUrlCredentials } from '../core/http/redact.js';
import { VerifyError } from './errors.js';

/** One request of a probe: a path under `/api/v1` (`/models`), its query without `?`, and a JSON body for POST. */
export interface ProbeRequest {
  readonly method: 'GET' | 'POST';
  /** Path under the API base, percent-encoded, e.g. `/model/openai/gpt-4o`. */
  readonly path: string;
  readonly query: string;
  readonly json?: unknown;
}

/** One side's whole answer: its status, its headers (lower-case names) and its body's bytes. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** A side: sends one request, resolves with the whole answer. */
export type Side = (request: ProbeRequest) => Promise<Answer>;

/**
 * The `User-Agent` both sides get, so a generation record's `user_agent` (which echoes it) has the same shape on
 * both (the in-process simulator would otherwise see none).
 */
const USER_AGENT = 'mockrouter-verify';

/** The key the in-process simulator is asked with: any key is accepted there, and the user's never reaches it. */
const SIMULATOR_KEY = 'sk-mockrouter-verify';

/**
 * The API base of `--upstream`: a URL whose path already ends with `/api/v1` is kept; any other path is a prefix
 * the API sits under, so `/api/v1` is added to it (`https://openrouter.ai` → `https://openrouter.ai/api/v1`,
 * `http://proxy:8080/openrouter` → `http://proxy:8080/openrouter/api/v1`). Query and fragment are dropped.
 *
 * @throws {VerifyError} `E_VERIFY_UPSTREAM_URL` for a value that is no `http:` or `https:` URL, or one carrying a
 *   user name or password (the key travels in `Authorization`, nothing else).
 */
export function apiBaseOf(upstream: string): URL {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new VerifyError('E_VERIFY_UPSTREAM_URL', `--upstream: expected an http:// or https:// URL such as https://openrouter.ai, got ${redactUrlCredentials(JSON.stringify(upstream))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new VerifyError('E_VERIFY_UPSTREAM_URL', `--upstream: expected an http:// or https:// URL such as https://openrouter.ai, got a ${url.protocol} URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new VerifyError('E_VERIFY_UPSTREAM_URL', '--upstream: a URL with a user name or password is not accepted; the key is read from OPENROUTER_API_KEY');
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(API_PREFIX) ? path : `${path}${API_PREFIX}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** The error's own words and its cause's code (`ECONNREFUSED`, `ENOTFOUND`), which undici's `fetch failed` hides. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The upstream side: `fetch` of `base` + the request's path, with `Authorization: Bearer <key>` and
 * `Accept: application/json` (`audio/*` for speech), each request given `timeoutMs` for its whole answer.
 *
 * @throws {VerifyError} `E_VERIFY_UNREACHABLE` naming the upstream's URL when a request fails or times out (never the
 *   key); `E_VERIFY_UNAUTHORIZED` when the upstream answers 401 (the key was refused).
 */
export function upstreamSide(base: URL, key: string, timeoutMs: number): Side {
  return async (request) => {
    const url = `${base.href}${request.path}${request.query === '' ? '' : `?${request.query}`}`;
    const where = `${request.method} ${base.origin}${base.pathname}${request.path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'user-agent': USER_AGENT, accept: request.path === '/audio/speech' ? 'audio/*' : 'application/json' };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    let answer: Answer;
    try {
      const response = await fetch(url, {
        method: request.method,
        headers,
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      const body = new Uint8Array(await response.arrayBuffer());
      const answerHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => (answerHeaders[name.toLowerCase()] = value));
      answer = { status: response.status, headers: answerHeaders, body };
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : reasonOf(error);
      throw new VerifyError('E_VERIFY_UNREACHABLE', `cannot reach the upstream ${base.href} (${where}): ${reason}`);
    }
    if (answer.status === 401) {
      throw new VerifyError('E_VERIFY_UNAUTHORIZED', `the upstream ${base.href} answered 401 to ${where}: the key in OPENROUTER_API_KEY was refused`);
    }
    return answer;
  };
}

async function bytesOf(body: CoreBody | null): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The simulator's side: `gateway.handle` with the same request (under `/api/v1`), asked with a key of its own (any
 * key is accepted by a gateway without a keys list), its body read whole and `onDone` called as an adapter does.
 */
export function simulatorSide(gateway: Gateway): Side {
  return async (request) => {
    const headers: Record<string, string> = { authorization: `Bearer ${SIMULATOR_KEY}`, 'user-agent': USER_AGENT, accept: request.path === '/audio/speech' ? 'audio/*' : 'application/json' };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    const response = await gateway.handle({
      method: request.method,
      path: `${API_PREFIX}${request.path}`,
      query: request.query,
      headers,
      body: request.json === undefined ? undefined : new TextEncoder().encode(JSON.stringify(request.json)),
    });
    const body = await bytesOf(response.body);
    response.onDone?.();
    const answerHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) answerHeaders[name.toLowerCase()] = value;
    return { status: response.status, headers: answerHeaders, body };
  };
}
