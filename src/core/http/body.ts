/**
 * Response bodies, the one place that knows their kinds: which bodies are streamed, the chunked bytes of audio
 * known whole up front ({@link ChunkedBody}, the synchronous fast path), and the tracking of how an adapter read a
 * streamed body ({@link trackReading}: bytes delivered, read to its end, cut). Adapters call a body's methods
 * ({@link StreamedBody}), never test its class.
 *
 * @module
 */
import type { CoreBody, StreamedBody } from '../base/types.js';

export type { StreamedBody } from '../base/types.js';

/** Default chunk size of streamed audio, in bytes (16 KiB). */
export const DEFAULT_CHUNK_BYTES = 16 * 1024;

/**
 * A streamed audio body whose final length and duration are known before its first byte (the speech plan fixes
 * both), so effects can pace it or cut it at an exact byte count while it is still being made.
 */
export interface SizedBody extends StreamedBody {
  /** The whole body's length, bytes. */
  readonly byteLength: number;
  /** The audio's duration, ms (used to pace it at real time). */
  readonly durationMs: number;
}

/**
 * Bytes that are sent as a chunked stream (no `Content-Length`), as the real gateway streams audio: a
 * {@link StreamedBody} whose chunks are at hand ({@link chunksNow}), so an adapter writes them all without awaiting
 * between them.
 */
export class ChunkedBody implements SizedBody {
  readonly #bytes: Uint8Array;

  /**
   * @param bytes the whole body (not copied; callers must not mutate it).
   * @param chunkSize bytes per chunk, at least 1.
   * @param durationMs for audio, its duration in ms (used to pace it at real time); 0 otherwise.
   */
  constructor(
    bytes: Uint8Array,
    readonly chunkSize: number = DEFAULT_CHUNK_BYTES,
    readonly durationMs: number = 0,
  ) {
    this.#bytes = bytes;
  }

  /** The body's length, bytes. */
  get byteLength(): number {
    return this.#bytes.byteLength;
  }

  /** The chunks, as views over the bytes (no copies), at once. */
  *chunksNow(): Generator<Uint8Array> {
    const bytes = this.#bytes;
    for (let offset = 0; offset < bytes.byteLength; offset += this.chunkSize) {
      yield bytes.subarray(offset, Math.min(offset + this.chunkSize, bytes.byteLength));
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    yield* this.chunksNow();
  }
}

/**
 * Whether `body` is streamed (a {@link StreamedBody}) rather than sent whole (`null`, text or bytes, with a
 * `Content-Length`).
 */
export function isStreamed(body: CoreBody | null): body is StreamedBody {
  return body !== null && typeof body === 'object' && !(body instanceof Uint8Array);
}

/** Whether `body` is streamed with its final length and duration known up front (speech; see {@link SizedBody}). */
export function isSized(body: CoreBody | null): body is SizedBody {
  return isStreamed(body) && typeof body.byteLength === 'number' && typeof body.durationMs === 'number';
}

/** How an adapter read a tracked body so far (see {@link trackReading}); it changes as the body is read. */
export interface BodyReading {
  /**
   * Bytes delivered: every chunk the reader took and then came back after (for the next one, or the end), so a
   * chunk taken but never written to a client that went away is not counted.
   */
  readonly bytes: number;
  /** `complete` once read to its end, `cut` once it failed (a `StreamCut`, or a render that failed); else `undefined`. */
  readonly end: 'complete' | 'cut' | undefined;
}

/** A {@link BodyReading} as the tracked body updates it. */
class Reading implements BodyReading {
  bytes = 0;
  end: 'complete' | 'cut' | undefined;
  /** Bytes of the last chunk handed out, not yet counted. */
  #pending = 0;

  /** The reader came back for more: the chunk handed out last counts. */
  settle(): void {
    this.bytes += this.#pending;
    this.#pending = 0;
  }

  /** `chunk` was handed out. */
  took(chunk: Uint8Array): void {
    this.#pending = chunk.byteLength;
  }
}

/** `chunks`, tracked into `reading` (a chunk counts once the next is taken, or the end reached). */
function* trackedChunks(chunks: Iterable<Uint8Array>, reading: Reading): Generator<Uint8Array> {
  for (const chunk of chunks) {
    reading.settle();
    reading.took(chunk);
    yield chunk;
  }
  reading.settle();
  reading.end = 'complete';
}

/**
 * `source`'s async iterator, tracked into `reading`. An iterator of its own rather than an async generator, so a
 * reader's `return()` reaches the source at once (a generator would wait for a pending `next()`), which stops a
 * render at once.
 */
function trackedIterator(source: AsyncIterator<Uint8Array>, reading: Reading): AsyncIterator<Uint8Array> {
  return {
    async next() {
      reading.settle();
      let result: IteratorResult<Uint8Array>;
      try {
        result = await source.next();
      } catch (error) {
        reading.end = 'cut';
        throw error;
      }
      if (result.done) reading.end = 'complete';
      else reading.took(result.value);
      return result;
    },
    return(value?: unknown) {
      return source.return ? source.return(value) : Promise.resolve({ done: true, value: undefined });
    },
  };
}

/**
 * A copy of `body` for an adapter to read, and the record of how it reads it (the journal's `response_bytes` and
 * `body_end`). The copy has `body`'s chunks, length, duration and `abandoned` signal; its chunks are at hand
 * ({@link StreamedBody.chunksNow}) when `body`'s are. `body` itself is left as it was.
 */
export function trackReading(body: StreamedBody): { body: StreamedBody; reading: BodyReading } {
  const reading = new Reading();
  const tracked: StreamedBody = {
    byteLength: body.byteLength,
    durationMs: body.durationMs,
    abandoned: body.abandoned,
    [Symbol.asyncIterator]: () => trackedIterator(body[Symbol.asyncIterator](), reading),
  };
  if (body.chunksNow) {
    tracked.chunksNow = () => {
      const chunks = body.chunksNow?.();
      return chunks && trackedChunks(chunks, reading);
    };
  }
  return { body: tracked, reading };
}
