/**
 * Small readers over a {@link CoreRequest}: headers, query parameters, the JSON body.
 *
 * @module
 */
import { GatewayError } from './errors.js';
import type { CoreRequest, HeaderMap } from './types.js';

/** The largest request body accepted, in bytes (1 MiB); a larger one is a 413 envelope. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The first value of header `name` (lower-case), or `undefined`. */
export function header(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Parses a raw query string (no leading `?`); `+` and percent-escapes are decoded as a URL query does. */
export function queryParams(query: string): URLSearchParams {
  return new URLSearchParams(query);
}

/** The message of a 413: `Request body is over the limit of 1048576 bytes`. */
export function bodyTooLargeMessage(): string {
  return `Request body is over the limit of ${MAX_BODY_BYTES} bytes`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const parsed = new WeakMap<CoreRequest, { value: unknown } | { error: GatewayError }>();

function parseBody(request: CoreRequest): { value: unknown } | { error: GatewayError } {
  const body = request.body;
  if (body && body.byteLength > MAX_BODY_BYTES) {
    return { error: new GatewayError(413, { message: bodyTooLargeMessage() }) };
  }
  if (!body || body.byteLength === 0) {
    return { error: new GatewayError(400, { message: 'Request body is required: a JSON object' }) };
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { error: new GatewayError(400, { message: 'Invalid JSON body: the body is not valid UTF-8' }) };
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

/** The JSON body, or `undefined` when there is none or it is not JSON (parsed once per request). */
export function jsonBodyOrUndefined(request: CoreRequest): unknown {
  const result = parseOnce(request);
  return 'value' in result ? result.value : undefined;
}

/**
 * Parses the request body as JSON.
 *
 * @returns the parsed value (any JSON type; the caller validates its shape).
 * @throws {GatewayError} 413 when the body is over {@link MAX_BODY_BYTES}; 400 when it is missing, not UTF-8,
 *   or not JSON (the message says which and where, as `Invalid JSON body: ...`).
 */
export function readJsonBody(request: CoreRequest): unknown {
  const result = parseOnce(request);
  if ('error' in result) throw result.error;
  return result.value;
}
