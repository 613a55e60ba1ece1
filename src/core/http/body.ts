/**
 * Response bodies: which are streamed, and the chunked bytes of audio.
 *
 * @module
 */
import type { CoreBody } from '../types.js';

/** Default chunk size of streamed audio, in bytes (16 KiB). */
export const DEFAULT_CHUNK_BYTES = 16 * 1024;

/**
 * A streamed audio body whose final length and duration are known before its first byte (the speech plan fixes
 * both), so effects can pace it or cut it at an exact byte count while it is still being made.
 */
export interface SizedBody extends AsyncIterable<Uint8Array> {
  /** The whole body's length, bytes. */
  readonly byteLength: number;
  /** The audio's duration, ms (used to pace it at real time). */
  readonly durationMs: number;
}

/**
 * Bytes that are sent as a chunked stream (no `Content-Length`), as the real gateway streams audio.
 * It is an `AsyncIterable<Uint8Array>` like any streamed body, and also exposes the bytes and a synchronous
 * chunk iterator so an adapter can write all chunks without awaiting between them.
 */
export class ChunkedBody implements SizedBody {
  /**
   * @param bytes the whole body (not copied; callers must not mutate it).
   * @param chunkSize bytes per chunk, at least 1.
   * @param durationMs for audio, its duration in ms (used to pace it at real time); 0 otherwise.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly chunkSize: number = DEFAULT_CHUNK_BYTES,
    readonly durationMs: number = 0,
  ) {}

  /** The body's length, bytes. */
  get byteLength(): number {
    return this.bytes.byteLength;
  }

  /** The chunks, as views over {@link bytes} (no copies). */
  *chunks(): Generator<Uint8Array> {
    const { bytes, chunkSize } = this;
    for (let offset = 0; offset < bytes.byteLength; offset += chunkSize) {
      yield bytes.subarray(offset, Math.min(offset + chunkSize, bytes.byteLength));
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    yield* this.chunks();
  }
}

/**
 * Whether `body` is streamed (an async iterable of chunks, {@link ChunkedBody} included) rather than sent whole
 * (`null`, text or bytes, with a `Content-Length`).
 */
export function isStreamed(body: CoreBody | null): body is AsyncIterable<Uint8Array> {
  return body !== null && typeof body === 'object' && !(body instanceof Uint8Array);
}
