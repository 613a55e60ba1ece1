/**
 * Conversions between Fetch `Request`/`Response` (what msw hands a handler) and the core's plain
 * request/result. The only place in the in-process mode that knows both worlds.
 *
 * @module
 */
import { HttpResponse, delay } from 'msw';
import { ChunkedBody, isStreamed } from '../core/body.js';
import { yieldToEventLoop } from '../core/event-loop.js';
import { CUT_GRACE_MS, type CoreBody, type CoreRequest, type CoreResponse } from '../core/types.js';

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

/** The host's `setTimeout` when this module loaded: fake timers installed later do not hold a cut back. */
const hostSetTimeout = globalThis.setTimeout;

/**
 * Resolves after {@link CUT_GRACE_MS} of real time, or after one macrotask when fake timers were installed before
 * this module loaded (`@sinonjs/fake-timers` marks its fakes with `clock`): in Node.js the macrotask is enough.
 */
function cutGrace(): Promise<void> {
  if ('clock' in hostSetTimeout) return yieldToEventLoop();
  return new Promise((resolve) => void hostSetTimeout(resolve, CUT_GRACE_MS));
}

/**
 * An async body as a `ReadableStream`, pulled on demand (`highWaterMark` 0: no chunk is read ahead).
 *
 * A cut stream (scenario `audio.truncate`; the body throws after its last chunk) must give the client every byte
 * before the cut, then fail the read that follows. Erroring a stream discards whatever is still queued downstream
 * of it, and a mocked body passes through several queues before the client reads it: msw's clone of the response
 * (a tee); in browsers also the transfer to the service worker, the worker's own clone (another tee) and
 * Chromium's data pipe to the page, whose body reader drops unread bytes as soon as the load fails (Blink's
 * `DataPipeBytesConsumer::SignalError`: it "switch[es] states immediately" and does not wait for the end of the
 * pipe). So the error waits for two things:
 *
 * 1. the pull that follows the last chunk: with `highWaterMark` 0 the stream is pulled only when the next stage
 *    reads again, so that stage has taken the last chunk (with 1, the stream pulls again as soon as its own
 *    queue empties, before anyone downstream has the chunk);
 * 2. then {@link CUT_GRACE_MS} of real time ({@link cutGrace}), in which the consumer's work already queued runs
 *    first (the response's arrival in the page, the data waiting in the pipe), as it would before a reset.
 *
 * Measured in Chromium 156 through msw's service worker, a cut inside the first chunk: 50 runs in a row, 50 × 4
 * at a time, and 50 each with readers that block 5 and 30 ms before reading. With one macrotask (the previous
 * rule) 125 of the 350 runs got the promised bytes, the others none; with (1) alone, 229 of 300 (no 30 ms
 * readers); with (1) and 1 ms, 336 of 350; with 10 ms but not (1), 345; with (1) and 4, 10 or 20 ms, all 350. A
 * cut after several chunks was already exact. In Node.js (msw's interceptors: the client reads the mocked
 * `Response` itself) one macrotask was enough.
 */
function toStream(body: AsyncIterable<Uint8Array>, onDone: () => void, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  const stop = () => {
    onDone();
    void iterator.return?.();
  };
  signal?.addEventListener('abort', stop, { once: true });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await iterator.next();
          if (done) {
            controller.close();
            onDone();
          } else controller.enqueue(value);
        } catch (error) {
          await cutGrace();
          controller.error(error);
          onDone();
        }
      },
      cancel: stop,
    },
    { highWaterMark: 0 },
  );
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
