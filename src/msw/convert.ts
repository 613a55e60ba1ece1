/**
 * Conversions between Fetch `Request`/`Response` (what msw hands a handler) and the core's plain
 * request/result. The only place in the in-process mode that knows both worlds.
 *
 * @module
 */
import { HttpResponse } from 'msw';
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

function toStream(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function toBodyInit(body: CoreBody | null): BodyInit | null {
  if (body === null || typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body as Uint8Array<ArrayBuffer>;
  if (body instanceof ChunkedBody) {
    const chunks = body.chunks();
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
  }
  return toStream(body);
}

/** Turns a {@link CoreResponse} into msw's `HttpResponse`; streamed bodies become a `ReadableStream`. */
export function toHttpResponse(result: CoreResponse): HttpResponse<BodyInit> {
  return new HttpResponse(toBodyInit(result.body), { status: result.status, headers: result.headers });
}
