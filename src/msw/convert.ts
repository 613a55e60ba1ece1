/**
 * Conversions between Fetch `Request`/`Response` (what msw hands a handler) and the core's plain
 * request/result. The only place in the in-process mode that knows both worlds.
 *
 * @module
 */
import { HttpResponse, delay } from 'msw';
import { ChunkedBody, isStreamed } from '../core/body.js';
import { yieldToEventLoop } from '../core/event-loop.js';
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

function toStream(body: AsyncIterable<Uint8Array>, onDone: () => void, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  const stop = () => {
    onDone();
    void iterator.return?.();
  };
  signal?.addEventListener('abort', stop, { once: true });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          controller.close();
          onDone();
        } else controller.enqueue(value);
      } catch (error) {
        // A cut stream (scenario `audio.truncate`): the client sees the body fail mid-way. Erroring a stream
        // discards chunks still queued downstream (msw copies the body through its own streams), so let the
        // queued bytes reach the client first: one macrotask is enough.
        await yieldToEventLoop();
        controller.error(error);
        onDone();
      }
    },
    cancel: stop,
  });
}

function toBodyInit(body: CoreBody | null, onDone: () => void, signal: AbortSignal | undefined): BodyInit | null {
  if (!isStreamed(body)) return body as string | Uint8Array<ArrayBuffer> | null;
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
  return toStream(body, onDone, signal);
}

const noop = () => {};

/** `fn`, run at most once however often it is called (a stream can end and then see its request aborted). */
function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/**
 * Turns a {@link CoreResponse} into msw's `HttpResponse`: waits `delayMs` with msw's `delay` (so it follows
 * fake timers), answers `HttpResponse.error()` for a reset, and streams async bodies as a `ReadableStream`.
 *
 * @param signal the request's abort signal: when the client aborts, a paced stream stops and `onDone` runs.
 * @param head `true` for a HEAD request: the body is dropped, as an HTTP server does.
 */
export async function toHttpResponse(result: CoreResponse, signal?: AbortSignal, head = false): Promise<Response> {
  if (result.delayMs) await delay(result.delayMs);
  const onDone = once(result.onDone ?? noop);
  if (result.reset) {
    onDone();
    return HttpResponse.error();
  }
  const body = head ? null : toBodyInit(result.body, onDone, signal);
  if (!(body instanceof ReadableStream)) onDone();
  return new HttpResponse(body, { status: result.status, headers: result.headers });
}
