/**
 * The plain request and result the core works on. The adapters (`src/msw`, `src/server`) translate to and
 * from these; nothing in `src/core` knows about Fetch `Request`/`Response`, msw or fastify.
 *
 * @module
 */

/** Header map with lower-case names, as both Node's `IncomingHttpHeaders` and a Fetch `Headers` give them. */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One HTTP request, framework-free.
 *
 * @example
 * { method: 'GET', path: '/api/v1/model/openai/gpt-4o%3Afree', query: '', headers: { authorization: 'Bearer sk-1' } }
 */
export interface CoreRequest {
  /** Upper-case HTTP method, e.g. `GET`. */
  method: string;
  /** The raw (still percent-encoded) path, starting with `/`, without the query string. */
  path: string;
  /** The raw query string without the leading `?` (may be empty). */
  query: string;
  /** Request headers with lower-case names. */
  headers: HeaderMap;
  /** The raw body bytes, or `undefined` when the request has none. */
  body?: Uint8Array | undefined;
}

/**
 * A response body: bytes or text sent as one piece, or an async iterable of chunks streamed as they come
 * (the speech endpoint streams its audio, as the real gateway does).
 */
export type CoreBody = string | Uint8Array | AsyncIterable<Uint8Array>;

/** One HTTP response, framework-free. */
export interface CoreResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers (names in their canonical case, e.g. `Content-Type`, `X-Generation-Id`). */
  headers: Record<string, string>;
  /** The body; `null` for none. */
  body: CoreBody | null;
  /** Wait this long before sending anything, ms (a scenario's `delay`). Adapters use msw's `delay` / a timer. */
  delayMs?: number | undefined;
  /**
   * Drop the connection instead of answering (a scenario's `reset`): the standalone server destroys the
   * socket; in-process the handler answers `HttpResponse.error()`, so `fetch` rejects with a network error.
   */
  reset?: boolean | undefined;
  /** Called by the adapter once the response is fully sent, cut off, or abandoned by the client. */
  onDone?: (() => void) | undefined;
}

/**
 * Thrown by a streamed body to cut the connection mid-stream (a scenario's `audio.truncate`): the standalone
 * server destroys the socket after the bytes sent so far; in-process the body stream errors.
 */
export class StreamCut extends Error {
  override name = 'StreamCut';
}
