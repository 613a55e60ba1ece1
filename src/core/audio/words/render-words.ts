/**
 * Speech with words: the pieces of a request's text (`pieces.ts`) synthesized one at a time by CMU Flite
 * (`flite-wasi.ts`) with the voice's speaker (`speakers.ts`), resampled to 24,000 Hz (`resample.ts`), as mono 16-bit
 * samples ready to encode. A span Flite cannot say, or says as silence, is the simulator's tones for that text
 * (`synthesize.ts`), in the same voice name, speed and seed.
 *
 * Deterministic: a fresh Flite instance per piece gives the same samples for the same text, speaker and speed, in
 * every engine (`docs/speech.md`).
 *
 * @module
 */
import { synthesizeSamples } from '../synthesize.js';
import type { SynthesisRequest } from '../types.js';
import { FLITE_OUTPUT_PATH, runFlite, wavSamples } from './flite-wasi.js';
import { spokenParts } from './pieces.js';
import { FLITE_SAMPLE_RATE, resample16kTo24k } from './resample.js';
import { speakerOf, type Speaker } from './speakers.js';

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
 * `pieces.ts`), so a PCM answer is the answers of each turn sent alone, concatenated.
 *
 * @param module the compiled engine (`loadFlite` of `flite-engine.ts`).
 * @param req `input`, `voice`, `speed` (already 1 when the model ignores it), `seed` (for tones spans only) and
 *   `turns` (for multi-speaker input; `input` and `voice` are then not said).
 * @throws (from `next()`) what {@link sayWithFlite} throws.
 */
export async function* wordSamples(module: WebAssembly.Module, req: SynthesisRequest): AsyncGenerator<Int16Array> {
  for (const part of spokenParts(req)) {
    const speaker = speakerOf(part.voice);
    for (const piece of part.pieces) {
      const said = piece.kind === 'words' ? await sayWithFlite(module, piece.text, speaker, req.speed) : undefined;
      yield said ?? synthesizeSamples({ input: piece.text, voice: part.voice, speed: req.speed, seed: req.seed });
    }
  }
}
