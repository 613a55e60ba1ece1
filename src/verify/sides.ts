/**
 * The two sides `mockrouter verify` asks: the upstream over HTTP (`fetch`) and an in-process simulator
 * (`Gateway.handle`), behind one function type, so every probe is sent to both alike.
 *
 * @module
 */
import type { Gateway } from '../core/gateway/gateway.js';
import { API_PREFIX } from '../core/http/routes.js';
import type { CoreBody } from '../core/base/types.js';
import { UpstreamError, upstreamOf } from '../recorder/upstream.js';
import { bytesText, jsonOfText, readTextWithin } from './answer-body.js';
import { VerifyError } from './errors.js';

/** One request of a probe: a path under `/api/v1` (`/models`), its query without `?`, and a JSON body for POST. */
export interface ProbeRequest {
  readonly method: 'GET' | 'POST';
  /** Path under the API base, percent-encoded, e.g. `/model/openai/gpt-4o`. */
  readonly path: string;
  readonly query: string;
  readonly json?: unknown;
}

/**
 * One side's whole answer, as compared: its status, its headers (lower-case names) and its body as JSON
 * (`undefined` when it is empty, no JSON, or a speech call's audio: {@link readsAsJson}). The body was read whole;
 * its bytes are not kept.
 */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly json: unknown;
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

/** Whether an answer's body is read as JSON: all are but a speech call's 200, which is audio (its errors are the JSON envelope). */
export function readsAsJson(request: ProbeRequest, status: number): boolean {
  return !(request.path === '/audio/speech' && status === 200);
}

/**
 * The API base of `--upstream`, read by the recorder's `upstreamOf`: an origin with an optional path prefix, under
 * which the API sits at `/api/v1` (`https://openrouter.ai` → `https://openrouter.ai/api/v1`,
 * `http://proxy:8080/openrouter` → `http://proxy:8080/openrouter/api/v1`; a path already ending with `/api/v1` is
 * kept).
 *
 * @throws {VerifyError} `E_VERIFY_UPSTREAM_URL`, with `upstreamOf`'s message, for a value that is no `http:` or
 *   `https:` URL, or one carrying a user name or password, a query or a fragment.
 */
export function apiBaseOf(upstream: string): URL {
  try {
    const { origin, prefix } = upstreamOf(upstream);
    return new URL(`${origin}${prefix}${API_PREFIX}`);
  } catch (error) {
    if (error instanceof UpstreamError) throw new VerifyError('E_VERIFY_UPSTREAM_URL', error.message);
    throw error;
  }
}

/** The error's own words and its cause's code (`ECONNREFUSED`, `ENOTFOUND`), which undici's `fetch failed` hides. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The bounds of each upstream request. */
export interface UpstreamLimits {
  /** Time for each request's whole answer, headers and body, ms (`--timeout`). */
  readonly timeoutMs: number;
  /** Aborted when the whole check's time is up (`--deadline`); then no request is sent, and the one under way stops. */
  readonly deadline: AbortSignal;
  /** The whole check's time, ms, for the message. */
  readonly deadlineMs: number;
  /** Most bytes of one answer's body once decoded. */
  readonly maxBytes: number;
}

/**
 * The upstream side: `fetch` of `base` + the request's path, with `Authorization: Bearer <key>` and
 * `Accept: application/json` (`audio/*` for speech). Each answer is bounded: `limits.timeoutMs` for the whole of it,
 * `limits.maxBytes` of body counted after `fetch` decodes its `Content-Encoding` (gzip, deflate, br: a stream, so
 * a compressed body is stopped at the bound, not inflated whole), JSON no deeper than `MAX_ANSWER_DEPTH` and with
 * no more than `MAX_ANSWER_ITEMS` elements and fields (`jsonOfText`), and the whole check's `limits.deadline`.
 *
 * @throws {VerifyError} naming the upstream's URL and the request (never the key): before an answer,
 *   `E_VERIFY_UNREACHABLE` (the request failed, or no answer within the timeout) or `E_VERIFY_UNAUTHORIZED` (401);
 *   for an answer it cannot read, `E_VERIFY_ANSWER_TOO_BIG`, `E_VERIFY_ANSWER_TOO_DEEP`, `E_VERIFY_ANSWER_TIMEOUT`
 *   or `E_VERIFY_ANSWER_UNREADABLE` (its body broke off or does not decode); `E_VERIFY_DEADLINE` once the deadline
 *   has passed.
 */
export function upstreamSide(base: URL, key: string, limits: UpstreamLimits): Side {
  const { timeoutMs, deadline, deadlineMs, maxBytes } = limits;
  return async (request) => {
    const url = `${base.href}${request.path}${request.query === '' ? '' : `?${request.query}`}`;
    const where = `${request.method} ${base.origin}${base.pathname}${request.path}`;
    const pastDeadline = () => new VerifyError('E_VERIFY_DEADLINE', `the check's deadline of ${deadlineMs} ms (--deadline) passed at ${where}: stopped there`);
    if (deadline.aborted) throw pastDeadline();
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'user-agent': USER_AGENT, accept: request.path === '/audio/speech' ? 'audio/*' : 'application/json' };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([timeout, deadline]);
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (deadline.aborted) throw pastDeadline();
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : reasonOf(error);
      throw new VerifyError('E_VERIFY_UNREACHABLE', `cannot reach the upstream ${base.href} (${where}): ${reason}`);
    }
    if (response.status === 401) {
      await response.body?.cancel().catch(() => {});
      throw new VerifyError('E_VERIFY_UNAUTHORIZED', `the upstream ${base.href} answered 401 to ${where}: the key in OPENROUTER_API_KEY was refused`);
    }
    const subject = `the upstream's ${response.status} answer to ${where}`;
    const encoding = response.headers.get('content-encoding');
    const json = readsAsJson(request, response.status);
    let text: string | undefined;
    try {
      text = await readTextWithin(response.body, maxBytes, json);
    } catch (error) {
      if (deadline.aborted) throw pastDeadline();
      if (timeout.aborted) throw new VerifyError('E_VERIFY_ANSWER_TIMEOUT', `${subject} was not whole within ${timeoutMs} ms (--timeout): its body stalled or came too slowly`);
      throw new VerifyError('E_VERIFY_ANSWER_UNREADABLE', `${subject} could not be read${encoding === null ? '' : ` (Content-Encoding: ${encoding})`}: ${reasonOf(error)}`);
    }
    if (text === undefined) {
      throw new VerifyError('E_VERIFY_ANSWER_TOO_BIG', `${subject} is larger than ${bytesText(maxBytes)}${encoding === null ? '' : ` once decoded (Content-Encoding: ${encoding})`}: stopped reading it`);
    }
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (answerHeaders[name.toLowerCase()] = value));
    return { status: response.status, headers: answerHeaders, json: json ? jsonOfText(text, subject) : undefined };
  };
}

async function textOf(body: CoreBody | null): Promise<string> {
  if (body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return new TextDecoder().decode(Buffer.concat(chunks));
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
    const text = await textOf(response.body);
    response.onDone?.();
    const answerHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) answerHeaders[name.toLowerCase()] = value;
    return { status: response.status, headers: answerHeaders, json: readsAsJson(request, response.status) ? jsonOfText(text, `mockrouter's ${response.status} answer to ${request.method} ${request.path}`) : undefined };
  };
}
