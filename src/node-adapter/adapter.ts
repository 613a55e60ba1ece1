/**
 * The two halves of serving the core from Node's `node:http` (the standalone server, and any framework built on
 * it, such as express): a Node request to the core's request ({@link toCoreRequest}, with {@link hasRequestBody}
 * and {@link readRequestBody} to get its body), and the core's response written to a Node response
 * ({@link sendResult}, from `send.ts`). No Fetch objects in between, and nothing here assumes the standalone
 * server: no admin API, no logger, no timeouts.
 *
 * @example
 * import { createServer } from 'node:http';
 * const door = frontDoor(gateway);
 * createServer(async (request, response) => {
 *   const read = hasRequestBody(request) ? await readRequestBody(request) : { body: undefined };
 *   sendResult(response, 'refused' in read ? read.refused : await door(toCoreRequest(request, read.body)));
 * });
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { toErrorResponse } from '../core/base/error-envelope.js';
import { bodyTooLarge, unreadableBody } from '../core/http/malformed-requests.js';
import { MAX_BODY_BYTES, splitTarget } from '../core/http/request.js';
import type { ErrorReporter } from '../core/base/report-error.js';
import type { CoreRequest, CoreResponse, MaybePromise } from '../core/base/types.js';

export { sendResult, writeResult } from './send.js';

/**
 * The core's request for Node's `request`: its method, the path and query split at the first `?` (both raw, still
 * percent-encoded), its headers as Node gives them (lower-case names), and `body`.
 *
 * @param body the request's body bytes ({@link readRequestBody}), or `undefined` for none.
 * @param url the request target to route by, default `request.url` (`/` when Node gives none); express makes
 *   `request.url` relative to the middleware's mount path, which `createMiddleware` (`src/express/`) routes by.
 */
export function toCoreRequest(request: IncomingMessage, body?: Uint8Array, url: string = request.url ?? '/'): CoreRequest {
  const { path, query } = splitTarget(url);
  return { method: request.method ?? 'GET', path, query, headers: request.headers, body };
}

/** Methods whose requests may carry a body the core reads (fastify's rule, which the server kept). */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY']);

/**
 * Whether `request` has a body to read: its method is one that may carry one (`POST`, `PUT`, `PATCH`, `DELETE`,
 * `OPTIONS`, `QUERY`) and it says so (a `Content-Type`, a `Transfer-Encoding`, or a `Content-Length` other than
 * `0`). The body of any other request (a `GET`'s) is left unread: Node discards it after the response.
 */
export function hasRequestBody(request: IncomingMessage): boolean {
  if (!BODY_METHODS.has(request.method ?? '')) return false;
  const { headers } = request;
  if (headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** What {@link readRequestBody} got: the body's bytes, or the answer that refuses the request. */
export type BodyRead = { body: Uint8Array } | { refused: CoreResponse };

/**
 * Reads `request`'s body whole, at most `limit` bytes.
 *
 * @param limit bytes; default `MAX_BODY_BYTES` of `src/core/http/request.ts` (1 MiB).
 * @returns the promise of the bytes, or of the answer that refuses the request (never rejects): 413 (`bodyTooLarge`
 *   of `src/core/http/malformed-requests.ts`) at once when `Content-Length` is over `limit`, or when the bytes pass
 *   it (the rest is then read and dropped, so the connection stays usable); 400 (`unreadableBody`) when the body
 *   fails (the client left) or ends short of its `Content-Length`.
 */
export function readRequestBody(request: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<BodyRead> {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return Promise.resolve({ refused: bodyTooLarge(limit) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > limit) {
        // Still flowing: the rest is read and dropped.
        stop();
        resolve({ refused: bodyTooLarge(limit) });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      if (!Number.isNaN(declared) && received !== declared) {
        resolve({ refused: unreadableBody(`it ended after ${received} of the ${declared} bytes of its Content-Length`) });
        return;
      }
      // A copy, never a view of the socket's read buffer (the journal may keep the body).
      resolve({ body: Buffer.concat(chunks, received) });
    };
    const onError = (error: Error) => {
      stop();
      resolve({ refused: unreadableBody(error.message) });
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.resume();
  });
}

/**
 * `compute()`'s answer (it returns the response or a promise of it), or, when it throws or its promise rejects (a
 * fault outside the gateway's own error guard: a dashboard file that cannot be read, a bug in a wrapper around the
 * front door), the fault reported once to `report` (as happening in `request <METHOD> <path>`) and answered as
 * every adapter answers one: `toErrorResponse` of `src/core/base/error-envelope.ts` (a `GatewayError`'s own
 * envelope, else a 500 envelope naming the error, never a stack trace).
 *
 * @returns a promise of the response, which never rejects, so one request's fault never reaches Node's `request`
 *   listener or an unhandled rejection, where it would end the process.
 */
export function answerOrFault(request: IncomingMessage, compute: () => MaybePromise<CoreResponse>, report: ErrorReporter): Promise<CoreResponse> {
  // Not `async`: the answer's promise gets one handler, and nothing else is made on the way.
  try {
    const answer = compute();
    return answer instanceof Promise ? answer.catch((error: unknown) => faultAnswer(request, error, report)) : Promise.resolve(answer);
  } catch (error) {
    return Promise.resolve(faultAnswer(request, error, report));
  }
}

/** `error`, which ended `request`'s answer before anything was sent, reported once and answered as in {@link answerOrFault}. */
export function faultAnswer(request: IncomingMessage, error: unknown, report: ErrorReporter): CoreResponse {
  report(error, `request ${request.method ?? ''} ${splitTarget(request.url ?? '/').path}`);
  return toErrorResponse(error);
}
