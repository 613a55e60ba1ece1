/**
 * Conversions between Fetch `Request`/`Response` (what msw hands a handler) and the core's plain
 * request/result. The only place in the in-process mode that knows both worlds.
 *
 * @module
 */
import { HttpResponse, delay } from 'msw';
import { ChunkedBody } from '../core/body.js';
import type { CoreBody, CoreRequest, CoreResponse } from '../core/types.js';

/** Reads a Fetch `Request` into a {@link CoreRequest} (headers lower-cased, body as bytes). */
export async function toCoreRequest(request: Request): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body: hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined,
  };
}

function toStream(body: AsyncIterable<Uint8Array>, onDone: () => void): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          controller.close();
          onDone();
        } else controller.enqueue(value);
      } catch (error) {
        // A cut stream (scenario `audio.truncate`): the client sees the body fail mid-way.
        controller.error(error);
        onDone();
      }
    },
    async cancel() {
      onDone();
      await iterator.return?.();
    },
  });
}

function toBodyInit(body: CoreBody | null, onDone: () => void): BodyInit | null {
  if (body === null || typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body as Uint8Array<ArrayBuffer>;
  if (body instanceof ChunkedBody) {
    const chunks = body.chunks();
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.next();
        if (next.done) {
          controller.close();
          onDone();
        } else controller.enqueue(next.value);
      },
      cancel: onDone,
    });
  }
  return toStream(body, onDone);
}

const noop = () => {};

/**
 * Turns a {@link CoreResponse} into msw's `HttpResponse`: waits `delayMs` with msw's `delay` (so it follows
 * fake timers), answers `HttpResponse.error()` for a reset, and streams async bodies as a `ReadableStream`.
 */
export async function toHttpResponse(result: CoreResponse): Promise<Response> {
  if (result.delayMs) await delay(result.delayMs);
  const onDone = result.onDone ?? noop;
  if (result.reset) {
    onDone();
    return HttpResponse.error();
  }
  const body = toBodyInit(result.body, onDone);
  if (!(body instanceof ReadableStream)) onDone();
  return new HttpResponse(body, { status: result.status, headers: result.headers });
}
