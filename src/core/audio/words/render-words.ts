/**
 * Speech with words: the pieces of a request's text (`pieces.ts`) synthesized one at a time by CMU Flite
 * (`flite-wasi.ts`) with the voice's speaker (`speakers.ts`), resampled to 24,000 Hz (`resample.ts`), as mono 16-bit
 * samples ready to encode. A span Flite cannot say, or says as silence, is the simulator's tones for that text
 * (`synthesize.ts`), in the same voice name, speed and seed; so is every piece once the answer has had its share of
 * Flite ({@link WORDS_LIMIT_MS}, {@link WORDS_LIMIT_PIECES}), which bounds what one request costs whatever its input.
 *
 * Deterministic: each piece is said from the state of a fresh Flite instance (`flite-instance.ts`), so the same text,
 * speaker and speed give the same samples in every engine (`docs/speech.md`); the limit counts samples and pieces,
 * never time.
 *
 * @module
 */
import { yieldToEventLoop } from '../../base/event-loop.js';
import type { WordsFacts } from '../../base/types.js';
import { SAMPLE_RATE, samplesToMs } from '../format.js';
import { synthesizeSamples } from '../synthesize.js';
import type { SynthesisRequest } from '../types.js';
import { FLITE_OUTPUT_PATH, wavSamples } from './flite-wasi.js';
import { runFlite } from './flite-instance.js';
import { spokenParts } from './pieces.js';
import { FLITE_SAMPLE_RATE, resample16kTo24k } from './resample.js';
import { speakerOf, type Speaker } from './speakers.js';

/**
 * Most speech Flite says in one answer, ms: once the pieces it said reach this length, the pieces after it are said in
 * tones (`docs/speech.md`, "What one answer may cost"). Flite costs about 20–70 ms of CPU per second of speech.
 */
export const WORDS_LIMIT_MS = 120_000;
/**
 * Most pieces Flite is run on in one answer (each run first puts the engine's writable memory back to its first
 * state, or makes a new instance); the pieces after are said in tones.
 */
export const WORDS_LIMIT_PIECES = 40;

/** What one piece of an answer with words was: its samples at 24,000 Hz, who said it, and its characters. */
export interface SaidPiece {
  readonly samples: number;
  /**
   * `words`: said by Flite; `tones`: a span Flite cannot say, or a piece it said as silence; `limit`: a piece Flite
   * would have said, in tones since the answer had its share of Flite.
   */
  readonly by: 'words' | 'tones' | 'limit';
  /** Characters of the piece's text, as Flite reads it (`pieces.ts`). */
  readonly chars: number;
}

/** What the journal says of an answer made of `pieces` ({@link WordsFacts}). */
export function wordsFactsOf(pieces: readonly SaidPiece[]): WordsFacts {
  let at = 0;
  let saidSamples = 0;
  let saidChars = 0;
  let limitedAt: number | undefined;
  let limitedChars = 0;
  for (const piece of pieces) {
    if (piece.by === 'words') {
      saidSamples += piece.samples;
      saidChars += piece.chars;
    } else if (piece.by === 'limit') {
      limitedAt ??= at;
      limitedChars += piece.chars;
    }
    at += piece.samples;
  }
  return { said_ms: samplesToMs(saidSamples), said_chars: saidChars, limited: limitedAt === undefined ? null : { at_ms: samplesToMs(limitedAt), chars: limitedChars } };
}

/**
 * Below this peak (of 32,767; 3% of full scale) Flite's output counts as silence: it said nothing of the piece (for
 * punctuation alone it writes a breath of silence with a click of a few hundred at most, where speech peaks above
 * 10,000).
 */
const SILENT_PEAK = 1024;

/**
 * Flite's command line for one piece: the speaker's base voice and pitch, the rate as a duration stretch (1 / speed),
 * the text, and the output file.
 */
export function fliteArgs(text: string, speaker: Speaker, speed: number): string[] {
  const args = ['-voice', speaker.voice];
  if (speaker.pitchHz !== null) args.push('--setf', `int_f0_target_mean=${speaker.pitchHz}`);
  if (speed !== 1) args.push('--setf', `duration_stretch=${1 / speed}`);
  args.push('-t', text, '-o', FLITE_OUTPUT_PATH);
  return args;
}

/**
 * Synthesizes one `words` piece with Flite: 24,000 Hz samples, or `undefined` when Flite said nothing (its output is
 * silent).
 *
 * @throws Error when Flite exits with an error, or writes no 16 kHz mono WAV; the engine's error if it traps.
 */
export async function sayWithFlite(module: WebAssembly.Module, text: string, speaker: Speaker, speed: number): Promise<Int16Array | undefined> {
  const run = await runFlite(module, fliteArgs(text, speaker, speed));
  if (run.exitCode !== 0 || !run.wav) {
    throw new Error(`flite exited with code ${run.exitCode}${run.messages ? `: ${run.messages.trim().slice(0, 200)}` : ''}`);
  }
  const { sampleRate, samples } = wavSamples(run.wav);
  if (sampleRate !== FLITE_SAMPLE_RATE) throw new Error(`flite wrote ${sampleRate} Hz, expected ${FLITE_SAMPLE_RATE} Hz (voice ${speaker.voice})`);
  let peak = 0;
  for (let i = 0; i < samples.length && peak < SILENT_PEAK; i++) peak = Math.max(peak, Math.abs(samples[i]!));
  return peak < SILENT_PEAK ? undefined : resample16kTo24k(samples);
}

/**
 * The samples of `req` with words, piece by piece (one piece's samples per step, in order): see the module's comment.
 * Multi-speaker turns are said one after the other, each turn's pieces in its own voice (`spokenParts` of
 * `pieces.ts`), so a PCM answer is the answers of each turn sent alone, concatenated (within the limit, which counts
 * the whole answer). Between two pieces, other work of the event loop runs (other requests, other renders).
 *
 * @param module the compiled engine (`loadFlite` of `flite-engine.ts`).
 * @param req `input`, `voice`, `speed` (already 1 when the model ignores it), `seed` (for tones spans only) and
 *   `turns` (for multi-speaker input; `input` and `voice` are then not said).
 * @param onPiece told what each piece was, before its samples are given (it may throw to stop the render).
 * @throws (from `next()`) what {@link sayWithFlite} throws.
 */
export async function* wordSamples(module: WebAssembly.Module, req: SynthesisRequest, onPiece?: (piece: SaidPiece) => void): AsyncGenerator<Int16Array> {
  const limitSamples = (WORDS_LIMIT_MS / 1000) * SAMPLE_RATE;
  let saidSamples = 0;
  let runs = 0;
  let first = true;
  for (const part of spokenParts(req)) {
    const speaker = speakerOf(part.voice);
    for (const piece of part.pieces) {
      if (!first) await yieldToEventLoop();
      first = false;
      const allowed = piece.kind === 'words' && saidSamples < limitSamples && runs < WORDS_LIMIT_PIECES;
      if (allowed) runs++;
      const said = allowed ? await sayWithFlite(module, piece.text, speaker, req.speed) : undefined;
      if (said) saidSamples += said.length;
      const samples = said ?? synthesizeSamples({ input: piece.text, voice: part.voice, speed: req.speed, seed: req.seed });
      onPiece?.({ samples: samples.length, by: said ? 'words' : piece.kind === 'words' && !allowed ? 'limit' : 'tones', chars: piece.text.length });
      yield samples;
    }
  }
}
