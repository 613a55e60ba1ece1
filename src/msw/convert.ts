/**
 * Conversions between Fetch `Request`/`Response` (what msw hands a handler) and the core's plain
 * request/result. The only place in the in-process mode that knows both worlds.
 *
 * @module
 */
import { HttpResponse, delay, type DefaultBodyType } from 'msw';
import { isStreamed } from '../core/http/body.js';
import { yieldToEventLoop } from '../core/base/event-loop.js';
import { CUT_GRACE_MS, StreamCut, type CoreRequest, type CoreResponse } from '../core/base/types.js';

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
 * Empty chunks a reader behind a service worker is given after the last bytes of a body that fails, before the
 * failure: each is pulled only when the worker asks for the next chunk, so once it has asked for the last of them
 * the worker's own reader has taken every byte before the cut (see {@link SharedBody}).
 */
const SERVICE_WORKER_PROBES = 2;

/**
 * Whether this page's requests go through a service worker (msw's `setupWorker`): it then reads the mocked body
 * across a `MessagePort`, several chunks ahead of the page's reader.
 */
function behindServiceWorker(): boolean {
  const navigator = (globalThis as { navigator?: { serviceWorker?: { controller?: unknown } } }).navigator;
  return navigator?.serviceWorker?.controller != null;
}

/** One reader of a {@link SharedBody}: the chunks read from the body that it has not taken yet. */
interface BodyReader {
  queue: Uint8Array[];
  /** Empty chunks still to give before the body's failure. */
  probes: number;
}

/**
 * An async body read once and given to any number of `ReadableStream`s (a response's and each of its clones'),
 * each with its own queue, pulled on demand (`highWaterMark` 0: no chunk is read ahead of a reader).
 *
 * A cut body (scenario `audio.truncate`: the body throws after its last chunk) must give each reader every byte
 * before the cut, then fail that reader's next read. Erroring a stream discards whatever is still queued
 * downstream of it, and a mocked body passes through several queues before the client reads it, so the failure
 * reaches a stream only on a pull after its reader took the last chunk, and then waits for what lies past it:
 *
 * 1. clones: `Response.clone` tees the body, and a tee errors both branches when its source fails, dropping the
 *    chunks the slower branch has not read (msw clones every mocked response it logs, unless `quiet`, and reads
 *    the clone at once). So {@link SharedBodyResponse} clones with a stream of its own instead of a tee.
 * 2. a service worker (msw's `setupWorker`): the page transfers the body to the worker, which tees it again (for
 *    its `RESPONSE` message) and feeds Chromium's data pipe to the page; the transfer and the tee hold up to two
 *    chunks the worker has asked for but not yet read. So, behind a service worker, the body gives
 *    {@link SERVICE_WORKER_PROBES} empty chunks after its last bytes (the page's reader never sees them: the data
 *    pipe carries bytes, not chunks); the pull after the last of them comes once the worker has read every byte.
 * 3. then {@link CUT_GRACE_MS} of real time ({@link cutGrace}), as a reset comes some time after the last segment on
 *    a real network: Chromium's page loader drops the bytes still in its data pipe the moment a load fails (Blink's
 *    `DataPipeBytesConsumer::SignalError` "switch[es] states immediately"), so a page that reads the body gets
 *    them all if it reads within that time.
 */
class SharedBody {
  readonly #iterator: AsyncIterator<Uint8Array>;
  readonly #readers = new Set<BodyReader>();
  readonly #onDone: () => void;
  readonly #probes: number;
  readonly #report: ((error: unknown) => void) | undefined;
  #reading: Promise<void> | undefined;
  /** How the body ended: `{}` when it is complete, `{ error }` when it failed; `undefined` while it goes on. */
  #end: { error?: unknown } | undefined;

  /**
   * @param onDone runs once the body has ended, failed, or been given up (every reader cancelled, or `signal`).
   * @param signal the request's abort signal: when the client aborts, a paced body stops.
   * @param report called once when the body fails with anything but a {@link StreamCut} (a render that failed): the
   *   readers see the failure all the same.
   */
  constructor(body: AsyncIterable<Uint8Array>, onDone: () => void, signal: AbortSignal | undefined, report?: (error: unknown) => void) {
    this.#iterator = body[Symbol.asyncIterator]();
    this.#onDone = onDone;
    this.#report = report;
    this.#probes = behindServiceWorker() ? SERVICE_WORKER_PROBES : 0;
    signal?.addEventListener('abort', () => this.#stop(), { once: true });
  }

  /** A new reader, with the chunks `from` has not taken yet (a clone's), or with none (the response's own). */
  reader(from?: BodyReader): BodyReader {
    const reader = { queue: from ? [...from.queue] : [], probes: this.#probes };
    this.#readers.add(reader);
    return reader;
  }

  /** `reader`'s chunks as a stream, pulled on demand. */
  stream(reader: BodyReader): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (reader.queue.length === 0 && this.#end === undefined) await this.#read();
          const chunk = reader.queue.shift();
          if (chunk !== undefined) return controller.enqueue(chunk);
          if (!this.#end || !('error' in this.#end)) {
            this.#readers.delete(reader);
            return controller.close();
          }
          if (reader.probes > 0) {
            reader.probes--;
            return controller.enqueue(new Uint8Array(0));
          }
          await cutGrace();
          this.#readers.delete(reader);
          controller.error(this.#end.error);
        },
        cancel: () => {
          this.#readers.delete(reader);
          if (this.#readers.size === 0) this.#stop();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** Reads the body's next chunk into every reader's queue (one read at a time, whoever asks). */
  #read(): Promise<void> {
    this.#reading ??= this.#iterator.next().then(
      ({ value, done }) => {
        this.#reading = undefined;
        if (done) this.#ended({});
        else for (const reader of this.#readers) reader.queue.push(value);
      },
      (error: unknown) => {
        this.#reading = undefined;
        if (!(error instanceof StreamCut)) this.#report?.(error);
        this.#ended({ error });
      },
    );
    return this.#reading;
  }

  #ended(end: { error?: unknown }): void {
    this.#end ??= end;
    this.#onDone();
  }

  #stop(): void {
    this.#onDone();
    void this.#iterator.return?.();
  }
}

/**
 * msw's `HttpResponse` over a {@link SharedBody}: `clone()` gives the clone a stream of its own instead of teeing
 * this one, so a failure of the body reaches each of them only after its reader has read every byte before it.
 */
class SharedBodyResponse extends HttpResponse<DefaultBodyType> {
  readonly #body: SharedBody;
  readonly #reader: BodyReader;

  constructor(body: SharedBody, reader: BodyReader, init: { status: number; statusText?: string; headers: HeadersInit }) {
    super(body.stream(reader) as unknown as DefaultBodyType, init);
    this.#body = body;
    this.#reader = reader;
  }

  /** @throws {TypeError} when the body has been read or locked, as `Response.clone` does. */
  override clone(): SharedBodyResponse {
    if (this.bodyUsed || this.body?.locked) throw new TypeError('Response.clone: the body has already been read');
    return new SharedBodyResponse(this.#body, this.#body.reader(this.#reader), { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

/** Chunks at hand (a body's `chunksNow()`) as a stream pulled on demand; `onDone` runs at its end or cancel. */
function chunkStream(chunks: Iterable<Uint8Array>, onDone: () => void): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = iterator.next();
      if (next.done) {
        controller.close();
        onDone();
      } else controller.enqueue(next.value);
    },
    cancel: onDone,
  });
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
 * @param report receives a streamed body's failure that is no scenario's cut ({@link StreamCut}), once.
 */
export async function toHttpResponse(result: CoreResponse, signal?: AbortSignal, head = false, report?: (error: unknown) => void): Promise<Response> {
  if (result.delayMs) await delay(result.delayMs);
  const onDone = once(result.onDone ?? noop);
  if (result.reset) {
    onDone();
    return HttpResponse.error();
  }
  const init = { status: result.status, headers: result.headers };
  const body = head ? null : result.body;
  if (!isStreamed(body)) {
    onDone();
    return new HttpResponse(body as string | Uint8Array<ArrayBuffer> | null, init);
  }
  const now = body.chunksNow?.();
  if (now) return new HttpResponse(chunkStream(now, onDone), init);
  const shared = new SharedBody(body, onDone, signal, report);
  return new SharedBodyResponse(shared, shared.reader(), init);
}
