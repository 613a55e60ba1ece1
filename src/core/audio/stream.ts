/**
 * Speech bytes piece by piece: a plan's samples synthesized and encoded about 0.5 s of audio at a time (well
 * under 10 ms each to synthesize and MP3-encode), for the render jobs of `render-job.ts` that stream them.
 *
 * The pieces concatenated are exactly the whole render's bytes ({@link renderBytes}): the same request and seed
 * give the same bytes streamed or whole, in either mode.
 *
 * @module
 */
import { createMp3Stream, mp3ByteLength } from './mp3.js';
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

/** Concatenates byte pieces into one buffer of `total` bytes. */
export function concatBytes(pieces: readonly Uint8Array[], total: number): Uint8Array {
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
