/**
 * The MP3 stream encoder: {@link createMp3Stream} and {@link encodeMp3}, the tag frame of
 * `src/core/audio/mp3-tag.ts` followed by the frames of the WebAssembly LAME of `src/core/audio/lame-instance.ts`.
 * Import these from `src/core/audio/mp3.ts`, which also loads the encoder.
 *
 * @module
 */

import { SAMPLE_RATE } from './format.js';
import { MP3_BITRATE_KBPS, buildInfoFrame, mp3ByteLength } from './mp3-tag.js';
import { concat } from '../base/bytes.js';
import { type LameEncoder, openLameEncoder } from './lame-instance.js';

/**
 * An encoder for one MP3 stream of a sample count fixed in advance.
 *
 * `header` + every `encode()` result + `finish()` is the whole MP3, byte-identical to {@link encodeMp3} of the same
 * samples, `mp3ByteLength(totalSamples)` bytes long. Streams are independent: any number may be open at once.
 */
export interface Mp3Stream {
  /** The Info/LAME tag frame (192 bytes): the first bytes of the stream. A fresh array the caller owns. */
  readonly header: Uint8Array;
  /**
   * Encodes the next samples (any count ≥ 0).
   *
   * @param samples mono samples at 24,000 Hz, 16-bit.
   * @returns the bytes LAME has completed so far, a copy the caller owns: may be empty, and need not end on a
   *   frame boundary (LAME writes a frame's bytes as its bit reservoir settles).
   * @throws RangeError if the samples given so far would exceed `totalSamples`; Error after `finish()` or
   *   `abort()`. A stream that threw is aborted.
   */
  encode(samples: Int16Array): Uint8Array;
  /**
   * Flushes the encoder and releases it.
   *
   * @returns the last bytes (at least two frames).
   * @throws RangeError if fewer than `totalSamples` samples were given; Error after `finish()` or `abort()`, or if
   *   the stream's length differs from `mp3ByteLength(totalSamples)` (another LAME build). A stream that threw is
   *   aborted.
   */
  finish(): Uint8Array;
  /**
   * Releases the encoder without finishing (a client went away). Idempotent; `encode()` and `finish()` throw after
   * it. Streams dropped without `finish()` or `abort()` are released when garbage-collected, later.
   */
  abort(): void;
}

/**
 * Opens an encoder for one stream of exactly `totalSamples` samples. Costs LAME's initialization and its state in
 * WebAssembly memory (with the C side's fixed 1.8 MB output buffer) until `finish()` or `abort()`.
 *
 * @param totalSamples the stream's sample count, a non-negative integer.
 * @throws Error if `loadMp3Encoder()` has not resolved; RangeError if `totalSamples` is not a non-negative
 *   safe integer.
 */
export function createMp3Stream(totalSamples: number): Mp3Stream {
  const header = buildInfoFrame(totalSamples);
  const { live, guarded, abort, finished } = lameLifecycle();
  let given = 0;
  let emitted = header.length;

  return {
    header,
    encode(samples: Int16Array): Uint8Array {
      const encoder = live();
      return guarded(() => {
        if (given + samples.length > totalSamples) {
          throw new RangeError(
            `MP3 stream of ${String(totalSamples)} samples given ${String(given + samples.length)} samples`,
          );
        }
        given += samples.length;
        const bytes = encoder.encode(samples);
        emitted += bytes.length;
        return bytes;
      });
    },
    finish(): Uint8Array {
      const encoder = live();
      const tail = guarded(() => {
        if (given !== totalSamples) {
          throw new RangeError(`MP3 stream of ${String(totalSamples)} samples finished after ${String(given)}`);
        }
        const last = encoder.flush();
        // The length is fixed by LAME's flush rule (see mp3-tag.ts); a mismatch would mean a different LAME build.
        if (emitted + last.length !== mp3ByteLength(totalSamples)) {
          throw new Error(
            `MP3 encoder produced ${String(emitted + last.length)} bytes for ${String(totalSamples)} samples, ` +
              `expected ${String(mp3ByteLength(totalSamples))}`,
          );
        }
        return last;
      });
      finished();
      return tail;
    },
    abort,
  };
}

/**
 * Encodes a whole buffer: the same bytes as {@link createMp3Stream} gives for these samples, however split.
 *
 * @param samples mono samples at 24,000 Hz ({@link SAMPLE_RATE}), 16-bit.
 * @returns the MP3 bytes, `mp3ByteLength(samples.length)` long: the tag frame, then the audio frames; no ID3 tag.
 * @throws Error if `loadMp3Encoder()` has not resolved.
 */
export function encodeMp3(samples: Int16Array): Uint8Array {
  const stream = createMp3Stream(samples.length);
  return concat([stream.header, stream.encode(samples), stream.finish()]);
}

/**
 * An encoder for one MP3 stream whose length is not known when it starts (speech with words, whose length Flite
 * decides sentence by sentence): LAME's frames only, with no Info/LAME tag frame, since that frame, sent first, holds
 * the total sample count. Decoders play the encoder and decoder delay (576 + 529 samples, 46 ms) of silence
 * first and up to one frame of padding last, as for a live stream. The bytes do not depend on how the samples are
 * split.
 */
export interface OpenMp3Stream {
  /**
   * Encodes the next samples (any count ≥ 0).
   *
   * @param samples mono samples at 24,000 Hz, 16-bit.
   * @returns the bytes LAME has completed so far, a copy the caller owns (may be empty).
   * @throws Error after `finish()` or `abort()`. A stream that threw is aborted.
   */
  encode(samples: Int16Array): Uint8Array;
  /**
   * Flushes the encoder and releases it.
   *
   * @returns the last bytes.
   * @throws Error after `finish()` or `abort()`.
   */
  finish(): Uint8Array;
  /** Releases the encoder without finishing. Idempotent. */
  abort(): void;
}

/**
 * Opens an encoder for one stream of any length (see {@link OpenMp3Stream}).
 *
 * @throws Error if `loadMp3Encoder()` has not resolved.
 */
export function createOpenMp3Stream(): OpenMp3Stream {
  const { live, guarded, abort, finished } = lameLifecycle();
  return {
    encode: (samples) => guarded(() => live().encode(samples)),
    finish() {
      const tail = guarded(() => live().flush());
      finished();
      return tail;
    },
    abort,
  };
}

/** The life of one LAME encoder, shared by both kinds of stream: open, then finished or aborted, released once. */
interface LameLifecycle {
  /** The encoder. @throws Error once the stream is finished or aborted. */
  live(): LameEncoder;
  /** Runs `step`; a throw aborts the stream, then propagates. */
  guarded<T>(step: () => T): T;
  /** Releases the encoder; the stream counts as aborted unless it finished. Idempotent. */
  abort(): void;
  /** Marks the stream finished and releases the encoder. */
  finished(): void;
}

/** Opens a LAME encoder at 24,000 Hz and the stream bitrate, and the rules of its life ({@link LameLifecycle}). */
function lameLifecycle(): LameLifecycle {
  let lame: LameEncoder | undefined = openLameEncoder(SAMPLE_RATE, MP3_BITRATE_KBPS);
  let state: 'open' | 'finished' | 'aborted' = 'open';
  const abort = (): void => {
    if (state === 'open') state = 'aborted';
    lame?.free();
    lame = undefined;
  };
  return {
    live() {
      if (state !== 'open' || !lame) throw new Error(`MP3 stream already ${state}`);
      return lame;
    },
    guarded(step) {
      try {
        return step();
      } catch (error) {
        abort();
        throw error;
      }
    },
    abort,
    finished() {
      state = 'finished';
      abort();
    },
  };
}
