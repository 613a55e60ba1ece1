/**
 * The gateway's answers to requests that are broken below the API: malformed HTTP, a path that does not decode, a
 * body over the limit or cut short, an unsupported `Expect`, HTTP/1.1 without `Host`, a method served nowhere. The
 * standalone server's HTTP layer detects most of these before the pipeline runs; the answers are stated here,
 * once, as the same error envelope every operation uses.
 *
 * @module
 */
import { GatewayError, errorResponse } from '../base/error-envelope.js';
import { redactUrlsIn } from './redact.js';
import { bodyTooLargeMessage } from './request.js';
import type { CoreResponse } from '../base/types.js';

/** Node's parser error codes that have a status of their own; any other malformed request is a 400. */
const PARSER_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * A request Node's HTTP parser rejected (bad `Content-Length`, bad header, headers over 16 KiB, too slow).
 *
 * @param code the parser's error code (`HPE_INVALID_CONTENT_LENGTH`, ...), or `undefined`.
 * @param detail the parser's message, used when there is no code.
 * @returns 431 for `HPE_HEADER_OVERFLOW`, 408 for a request timeout, else 400; message
 *   `Malformed HTTP request (<code>)`.
 */
export function malformedRequest(code: string | undefined, detail: string): CoreResponse {
  return errorResponse((code === undefined ? undefined : PARSER_STATUS[code]) ?? 400, { message: `Malformed HTTP request (${code ?? detail})` });
}

/** An `Expect` header other than `100-continue`: 417 (the envelope instead of Node's bare 417). */
export function expectationFailed(expect: string): CoreResponse {
  return errorResponse(417, { message: `Expect: unsupported expectation "${expect}"` });
}

/** HTTP/1.1 without `Host` (RFC 9112, section 3.2): 400. */
export function hostRequired(): CoreResponse {
  return errorResponse(400, { message: 'Host: required header missing (HTTP/1.1)' });
}

/**
 * A request target whose path (before the first `?` or `#`) is not valid percent-encoded UTF-8 (`%zz`, a lone `%`,
 * `%C3` alone): 400 `'<target>' is not a valid url component`, the message fastify's router (find-my-way) gave
 * before the server moved to `node:http`. Credentials the target's query carries are redacted (`redactUrlsIn`).
 *
 * @param target the request target as sent (`IncomingMessage.url`), with its query.
 */
export function badUrl(target: string): CoreResponse {
  return errorResponse(400, { message: redactUrlsIn(`'${target}' is not a valid url component`) });
}

/** A request body over `MAX_BODY_BYTES` (by its `Content-Length`, or once it passes the limit): 413, the core's own message. */
export function bodyTooLarge(limit?: number): CoreResponse {
  return errorResponse(413, { message: bodyTooLargeMessage(limit) });
}

/** A request body that ended before its `Content-Length` said, or failed while it was read (`detail`): 400. */
export function unreadableBody(detail: string): CoreResponse {
  return errorResponse(400, { message: `Request body could not be read: ${redactUrlsIn(detail)}` });
}

/**
 * The methods the simulator serves on some path: any other (`CONNECT`, `TRACE`, WebDAV's `PROPFIND`, ...) is a 405
 * wherever it is sent, also on a path with no route (where a served method gets the 404).
 */
export const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `Allow` for a method served nowhere on a path of the gateway's API with no route. */
export const API_METHODS = 'GET, HEAD, POST, OPTIONS';

/** `Allow` for a method served nowhere on a path of the admin API with no route. */
export const ADMIN_METHODS = 'GET, HEAD, POST, PUT, DELETE';

/**
 * The one 405 of the simulator (RFC 9110, section 15.5.6): `Method <method> is not allowed on <path>; use <allow>`,
 * with `Allow: <allow>`. Thrown by the pipeline and the admin API (so it is journaled where the API's answers are);
 * `.toResponse()` for an adapter's own answer (a `CONNECT`, which Node hands to no request handler).
 *
 * @param allow the path's own methods when it has a route, else {@link API_METHODS} or {@link ADMIN_METHODS}.
 */
export function methodNotAllowed(method: string, path: string, allow: string): GatewayError {
  return new GatewayError(405, { message: `Method ${method} is not allowed on ${path}; use ${allow}`, headers: { Allow: allow } });
}
