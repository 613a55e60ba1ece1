/**
 * Speech rendered as it is sent: the plan is made whole (cheap), then samples are synthesized and encoded a piece
 * at a time as the response body is pulled, so the first byte does not wait for the last and no step holds the
 * event loop for long (a piece is about 0.5 s of audio: well under 10 ms to synthesize and MP3-encode).
 *
 * The pieces concatenated are exactly the whole render's bytes ({@link renderBytes}): the same request and seed
 * give the same bytes streamed or whole, in either mode.
 *
 * @module
 */
import type { SizedBody } from '../body.js';
import { yieldToEventLoop } from '../event-loop.js';
import { samplesToMs } from './format.js';
import { createMp3Stream, loadMp3Encoder, mp3ByteLength } from './mp3.js';
import { encodePcm } from './pcm.js';
import { sampleChunks } from './synthesize.js';
import type { AudioFormat, SpeechPlan, VoiceProfile } from './types.js';

/** The length in bytes of `sampleCount` samples in `format`: 2 per sample for PCM, the exact MP3 length for MP3. */
export function encodedByteLength(format: AudioFormat, sampleCount: number): number {
  return format === 'mp3' ? mp3ByteLength(sampleCount) : sampleCount * 2;
}

/**
 * The bytes of a plan in `format`, piece by piece (for MP3, the tag frame first, then LAME's frames as they
 * complete). Synchronous; for MP3 the encoder must be loaded (`loadMp3Encoder`). Stopping the generator early
 * (`return()`) releases the MP3 encoder.
 *
 * @throws Error for MP3 when the encoder is not loaded.
 */
export function* byteChunks(plan: SpeechPlan, voice: VoiceProfile, format: AudioFormat): Generator<Uint8Array> {
  if (format === 'pcm') {
    for (const samples of sampleChunks(plan, voice)) yield encodePcm(samples);
    return;
  }
  const mp3 = createMp3Stream(plan.sampleCount);
  try {
    yield mp3.header;
    for (const samples of sampleChunks(plan, voice)) {
      const bytes = mp3.encode(samples);
      if (bytes.byteLength > 0) yield bytes;
    }
    yield mp3.finish();
  } finally {
    mp3.abort();
  }
}

/** Concatenates byte pieces into one buffer. */
function concatBytes(pieces: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.byteLength;
  }
  return out;
}

/**
 * The whole render of a plan, at once (the concatenation of {@link byteChunks}).
 *
 * @throws Error for MP3 when the encoder is not loaded.
 */
export function renderBytes(plan: SpeechPlan, voice: VoiceProfile, format: AudioFormat): Uint8Array {
  return concatBytes([...byteChunks(plan, voice, format)], encodedByteLength(format, plan.sampleCount));
}

/** What a {@link SpeechStream} reports while it renders. */
export interface SpeechStreamHooks {
  /** Each piece as it is rendered (before it is handed to the consumer). */
  piece?(bytes: Uint8Array): void;
  /** Once, with the whole body, after its last piece was pulled. */
  complete(bytes: Uint8Array): void;
}

/**
 * A response body that renders speech as it is pulled. Each piece is rendered, then the body waits one macrotask
 * before the next, so other requests are served during a long render. When the whole body has been pulled,
 * `hooks.complete` receives the bytes (to cache them); a consumer that stops early (`return()`, a client that went
 * away) stops the render and nothing is kept.
 */
export class SpeechStream implements SizedBody {
  /** The final length, bytes: known from the plan before the first byte. */
  readonly byteLength: number;
  /** The audio's duration, ms. */
  readonly durationMs: number;

  /**
   * @param plan the speech's timeline (samples at 24,000 Hz).
   * @param voice the voice to render it with.
   * @param format `pcm` or `mp3`.
   * @param hooks see {@link SpeechStreamHooks}.
   */
  constructor(
    private readonly plan: SpeechPlan,
    private readonly voice: VoiceProfile,
    private readonly format: AudioFormat,
    private readonly hooks: SpeechStreamHooks,
  ) {
    this.byteLength = encodedByteLength(format, plan.sampleCount);
    this.durationMs = samplesToMs(plan.sampleCount);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    if (this.format === 'mp3') await loadMp3Encoder();
    const pieces: Uint8Array[] = [];
    const chunks = byteChunks(this.plan, this.voice, this.format);
    let complete = false;
    try {
      let first = true;
      for (;;) {
        if (!first) await yieldToEventLoop();
        first = false;
        const next = chunks.next();
        if (next.done) break;
        pieces.push(next.value);
        this.hooks.piece?.(next.value);
        yield next.value;
      }
      complete = true;
    } finally {
      chunks.return(undefined);
      if (complete) this.hooks.complete(concatBytes(pieces, this.byteLength));
    }
  }
}
