/**
 * Small readers over a {@link CoreRequest}: headers, query parameters, the JSON body.
 *
 * @module
 */
import { jsonDepthOf } from '../base/json-depth.js';
import { GatewayError } from '../base/error-envelope.js';
import type { CoreRequest, HeaderMap } from '../base/types.js';
import { matchRoute } from './routes.js';

/** The largest request body accepted, in bytes (1 MiB); a larger one is a 413 envelope. Transcription takes more: {@link bodyLimitOf}. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The largest body of a transcription request (`createAudioTranscriptions`), bytes (64 MiB): room for a 25 MB
 * upload, or about 48 MB of audio as base64 JSON (the gateway says to send files over 25 MB that way and documents
 * no limit for it: a simulator choice, `docs/transcription.md`).
 */
export const TRANSCRIPTION_BODY_BYTES = 64 * 1024 * 1024;

/**
 * The largest body a request to `path` (raw, no query) may have, bytes: {@link TRANSCRIPTION_BODY_BYTES} for
 * `POST /api/v1/audio/transcriptions`, else {@link MAX_BODY_BYTES}. Every adapter reads a body within it.
 */
export function bodyLimitOf(path: string): number {
  return matchRoute(path)?.operation === 'transcription' ? TRANSCRIPTION_BODY_BYTES : MAX_BODY_BYTES;
}

/**
 * A request target split at its first `?`: the raw path and the raw query, both still percent-encoded (`query` is
 * `''` when there is none), as every adapter hands them to the core.
 * @example splitTarget('/api/v1/models?output_modalities=speech') // { path: '/api/v1/models', query: 'output_modalities=speech' }
 */
export function splitTarget(target: string): { path: string; query: string } {
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/** The first value of header `name` (lower-case), or `undefined`. */
export function header(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The deepest nesting of arrays and objects a JSON request body may have (a simulator choice, `docs/behaviour.md`,
 * "Where the simulator chooses"): a deeper body is a 400 envelope before it is parsed, so no later step (the
 * journal, the event stream, a log line) meets a value too deep to serialize.
 */
export const MAX_JSON_DEPTH = 64;

/** Parses a raw query string (no leading `?`); `+` and percent-escapes are decoded as a URL query does. */
export function queryParams(query: string): URLSearchParams {
  return new URLSearchParams(query);
}

/**
 * The one value of query parameter `name`, or `null` when absent.
 *
 * @throws {GatewayError} 400 `<name>: expected one value, got <n> (a repeated query parameter)` when it is given
 *   more than once: which one counts would be a guess (`?sort=newest&sort=evil`).
 */
export function singleParam(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new GatewayError(400, { message: `${name}: expected one value, got ${values.length} (a repeated query parameter)` });
  return values[0] ?? null;
}

/** The message of a 413: `Request body is over the limit of 1048576 bytes` (or of `limit` bytes). */
export function bodyTooLargeMessage(limit: number = MAX_BODY_BYTES): string {
  return `Request body is over the limit of ${limit} bytes`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const parsed = new WeakMap<CoreRequest, { value: unknown } | { error: GatewayError }>();

function parseBody(request: CoreRequest): { value: unknown } | { error: GatewayError } {
  const body = request.body;
  if (!body || body.byteLength === 0) {
    return { error: new GatewayError(400, { message: 'Request body is required: a JSON object' }) };
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { error: new GatewayError(400, { message: 'Invalid JSON body: the body is not valid UTF-8' }) };
  }
  if (jsonDepthOf(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { error: new GatewayError(400, { message: `Invalid JSON body: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels` }) };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: new GatewayError(400, { message: `Invalid JSON body: ${(error as Error).message}` }) };
  }
}

function parseOnce(request: CoreRequest): { value: unknown } | { error: GatewayError } {
  let result = parsed.get(request);
  if (!result) {
    result = parseBody(request);
    parsed.set(request, result);
  }
  return result;
}

/**
 * The JSON body, or `undefined` when there is none, it is not JSON, or it is over {@link MAX_BODY_BYTES} and was
 * not parsed before (by an operation with a larger limit). Parsed once per request.
 */
export function jsonBodyOrUndefined(request: CoreRequest): unknown {
  if ((request.body?.byteLength ?? 0) > MAX_BODY_BYTES && !parsed.has(request)) return undefined;
  const result = parseOnce(request);
  return 'value' in result ? result.value : undefined;
}

/**
 * Parses the request body as JSON.
 *
 * @param limit the largest body taken, bytes: {@link MAX_BODY_BYTES} (1 MiB), unless the operation takes more
 *   (transcription: `TRANSCRIPTION_BODY_BYTES` of `src/core/transcription/request-body.ts`).
 * @returns the parsed value (any JSON type; the caller validates its shape).
 * @throws {GatewayError} 413 when the body is over `limit`; 400 when it is missing, not UTF-8,
 *   nested deeper than {@link MAX_JSON_DEPTH}, or not JSON (the message says which and where, as
 *   `Invalid JSON body: ...`).
 */
export function readJsonBody(request: CoreRequest, limit: number = MAX_BODY_BYTES): unknown {
  if ((request.body?.byteLength ?? 0) > limit) throw new GatewayError(413, { message: bodyTooLargeMessage(limit) });
  const result = parseOnce(request);
  if ('error' in result) throw result.error;
  return result.value;
}
