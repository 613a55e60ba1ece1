/**
 * Speech bytes piece by piece: a plan's samples synthesized and encoded about 0.5 s of audio at a time, for the
 * render jobs of `render-job.ts` that stream them.
 *
 * The pieces concatenated are exactly the whole render's bytes ({@link renderBytes}): the same request and seed
 * give the same bytes streamed or whole, in either mode.
 *
 * @module
 */
import { concat } from '../base/bytes.js';
import { createMp3Stream, createOpenMp3Stream, mp3ByteLength } from './mp3.js';
import { buildInfoFrame } from './mp3-tag.js';
import { encodePcm } from './pcm.js';
import { sampleChunks } from './synthesize.js';
import type { AudioFormat, SpeechPlan, SpeechSegment, SynthesisRequest, VoiceProfile } from './types.js';
import { wordSamples, type SaidPiece } from './words/render-words.js';

/** The length in bytes of `sampleCount` samples in `format`: 2 per sample for PCM, the exact MP3 length for MP3. */
export function encodedByteLength(format: AudioFormat, sampleCount: number): number {
  return format === 'mp3' ? mp3ByteLength(sampleCount) : sampleCount * 2;
}

/**
 * The bytes of a plan in `format`, piece by piece (for MP3, the tag frame first, then LAME's frames as they
 * complete). Synchronous; for MP3 the encoder must be loaded (`loadMp3Encoder`). Stopping the generator early
 * (`return()`) releases the MP3 encoder.
 *
 * @param output for PCM, a zeroed buffer of the final length to synthesize into: the pieces are then views of
 *   it, in place (on little-endian hosts), so the whole body is there at the end without a copy.
 * @throws Error for MP3 when the encoder is not loaded.
 */
export function byteChunks(plan: SpeechPlan, voice: VoiceProfile, format: AudioFormat, output?: Uint8Array): Generator<Uint8Array> {
  return segmentByteChunks([{ plan, voice }], format, output);
}

/**
 * The bytes of several segments said one after the other (multi-speaker turns), in `format`, piece by piece: one
 * stream whose samples are each segment's samples in order (one MP3 tag frame and encoder for the whole). One
 * segment gives exactly {@link byteChunks}'s bytes.
 *
 * @param output for PCM, a zeroed buffer of the summed length (see {@link byteChunks}).
 * @throws Error for MP3 when the encoder is not loaded.
 */
export function* segmentByteChunks(segments: readonly SpeechSegment[], format: AudioFormat, output?: Uint8Array): Generator<Uint8Array> {
  const total = segments.reduce((sum, segment) => sum + segment.plan.sampleCount, 0);
  if (format === 'pcm') {
    const all = output && output.byteOffset % 2 === 0 ? new Int16Array(output.buffer, output.byteOffset, total) : undefined;
    let offset = 0;
    for (const { plan, voice } of segments) {
      const into = all?.subarray(offset, offset + plan.sampleCount);
      for (const samples of sampleChunks(plan, voice, undefined, into)) yield encodePcm(samples);
      offset += plan.sampleCount;
    }
    return;
  }
  const mp3 = createMp3Stream(total);
  try {
    yield mp3.header;
    for (const { plan, voice } of segments) {
      for (const samples of sampleChunks(plan, voice)) {
        const bytes = mp3.encode(samples);
        if (bytes.byteLength > 0) yield bytes;
      }
    }
    yield mp3.finish();
  } finally {
    mp3.abort();
  }
}

/**
 * The bytes of speech with words in `format` (one synthesized piece of text at a time, `words/`): PCM piece by piece
 * as each is said; MP3 whole, once the last piece is said, since it leads with the same Info/LAME tag frame as tones'
 * MP3 and that frame holds the sample count (gapless decoders trim LAME's delay and padding with it). The MP3's audio
 * frames are encoded as the pieces are said (an encoder of open length, `createOpenMp3Stream`, whose frames are those
 * of a stream of known length), and held until then. The pieces concatenated are the whole render's bytes.
 * Stopping the generator early (`return()`) releases the MP3 encoder.
 *
 * @param module the compiled Flite engine.
 * @param onPiece told what each piece was as it is said (`wordSamples`; it may throw to stop the render).
 * @throws (from `next()`) Flite's errors (`words/render-words.ts`); Error for MP3 when the encoder is not loaded, or
 *   when LAME gave another length than the tag frame says (another LAME build).
 */
export async function* wordByteChunks(module: WebAssembly.Module, req: SynthesisRequest, format: AudioFormat, onPiece?: (piece: SaidPiece) => void): AsyncGenerator<Uint8Array> {
  if (format === 'pcm') {
    for await (const samples of wordSamples(module, req, onPiece)) yield encodePcm(samples);
    return;
  }
  const mp3 = createOpenMp3Stream();
  const frames: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const samples of wordSamples(module, req, onPiece)) {
      total += samples.length;
      frames.push(mp3.encode(samples));
    }
    frames.push(mp3.finish());
  } finally {
    mp3.abort();
  }
  const body = concat([buildInfoFrame(total), ...frames]);
  if (body.byteLength !== mp3ByteLength(total)) throw new Error(`MP3 encoder produced ${body.byteLength} bytes for ${total} samples, expected ${mp3ByteLength(total)}`);
  yield body;
}

/**
 * Gathers pieces into one buffer of the body's final length, as they come: a piece already in place (a view of
 * the buffer at the right offset) is not copied.
 */
export class BodyAssembler {
  /** The whole body, filled as pieces are added. */
  readonly bytes: Uint8Array;
  #offset = 0;

  /** @param byteLength the final length, bytes. */
  constructor(byteLength: number) {
    this.bytes = new Uint8Array(byteLength);
  }

  /** Whether every byte of the final length has been added. */
  get full(): boolean {
    return this.#offset === this.bytes.byteLength;
  }

  /**
   * Adds the next piece.
   *
   * @returns the piece as a view of {@link bytes}.
   * @throws RangeError if the pieces would exceed the final length.
   */
  add(piece: Uint8Array): Uint8Array {
    const end = this.#offset + piece.byteLength;
    if (end > this.bytes.byteLength) throw new RangeError(`speech body over its length of ${this.bytes.byteLength} bytes`);
    const inPlace = piece.buffer === this.bytes.buffer && piece.byteOffset === this.bytes.byteOffset + this.#offset;
    if (!inPlace) this.bytes.set(piece, this.#offset);
    const view = this.bytes.subarray(this.#offset, end);
    this.#offset = end;
    return view;
  }
}

/**
 * The whole render of a plan, at once (the concatenation of {@link byteChunks}).
 *
 * @throws Error for MP3 when the encoder is not loaded.
 */
export function renderBytes(plan: SpeechPlan, voice: VoiceProfile, format: AudioFormat): Uint8Array {
  return renderSegmentBytes([{ plan, voice }], format);
}

/**
 * The whole render of segments said in order, at once (the concatenation of {@link segmentByteChunks}).
 *
 * @throws Error for MP3 when the encoder is not loaded.
 */
export function renderSegmentBytes(segments: readonly SpeechSegment[], format: AudioFormat): Uint8Array {
  const body = new BodyAssembler(encodedByteLength(format, segments.reduce((sum, segment) => sum + segment.plan.sampleCount, 0)));
  for (const piece of segmentByteChunks(segments, format, body.bytes)) body.add(piece);
  if (!body.full) throw new Error('speech render ended short of its length');
  return body.bytes;
}
