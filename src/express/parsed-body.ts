/**
 * The body of a request whose stream an earlier middleware (`express.json()`, `express.raw()`, `express.text()`)
 * already read: the gateway gets bytes again from what that parser left in `request.body`.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge } from '../core/http/malformed-requests.js';
import { MAX_BODY_BYTES } from '../core/http/request.js';
import type { BodyRead } from '../node-adapter/adapter.js';

/** A Node request as an express middleware receives it: `body` is what an earlier body parser left there, if any. */
export interface MiddlewareRequest extends IncomingMessage {
  /** A `Buffer` (`express.raw()`), a string (`express.text()`), a parsed value (`express.json()`), or nothing. */
  body?: unknown;
}

/**
 * Whether an earlier middleware has read `request`'s body stream to its end, so the bytes are gone from it and only
 * `request.body` is left. (A body parser that skipped the request, for its content type, left the stream unread.)
 */
export function bodyConsumed(request: IncomingMessage): boolean {
  return request.readableEnded;
}

const encoder = new TextEncoder();

/**
 * The bytes of `body`, as a parser left it in `request.body`: a `Buffer` or other `Uint8Array` as it is; a string
 * in UTF-8; `undefined` or `null` as no body; any other value (what `express.json()` parsed) re-serialized with
 * `JSON.stringify` (so the same JSON, not the same bytes: spacing and key order as parsed).
 *
 * @param limit bytes; default `MAX_BODY_BYTES` of `src/core/http/request.ts` (1 MiB), as a body read from the stream.
 * @returns the bytes (`undefined` for none), or the 413 envelope (`bodyTooLarge` of
 *   `src/core/http/malformed-requests.ts`) when they pass `limit`.
 */
export function parsedBodyBytes(body: unknown, limit: number = MAX_BODY_BYTES): BodyRead | { body: undefined } {
  if (body === undefined || body === null) return { body: undefined };
  const bytes = body instanceof Uint8Array ? body : encoder.encode(typeof body === 'string' ? body : (JSON.stringify(body) ?? ''));
  return bytes.byteLength > limit ? { refused: bodyTooLarge(limit) } : { body: bytes };
}
