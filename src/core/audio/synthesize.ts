/**
 * Speech-like tone synthesis: one harmonic tone burst per syllable, with raised-cosine attack/release ramps, on the
 * timeline computed by {@link planSpeech}. Output is what the `pcm` format of `createAudioSpeech` carries: mono,
 * 24 kHz, 16-bit signed samples.
 *
 * @module
 */

import { planSpeech } from './plan.js';
import type { Burst, SpeechPlan, SynthesisRequest, VoiceProfile } from './types.js';
import { TABLE_STEPS_PER_HZ, WAVETABLE_SIZE, getVoiceProfile } from './voice.js';

/** Peak amplitude of a full-gain burst, as a fraction of 16-bit full scale. */
export const PEAK_LEVEL = 0.5;
/** Attack and release ramp length in ms (shortened for very short bursts). */
const RAMP_MS = 8;
/** Fraction of its starting loudness a burst decays to by its end. */
const SUSTAIN_DECAY = 0.8;

/** Ramp length in samples at 24 kHz. */
const RAMP_SAMPLES = (RAMP_MS * 24000) / 1000;
/** Raised-cosine ramp, 0 → 1, RAMP_SAMPLES + 1 points. */
const RAMP = buildRamp(RAMP_SAMPLES);
const PEAK = PEAK_LEVEL * 32767;

/**
 * Synthesizes the request as 16-bit mono samples at 24,000 Hz.
 *
 * Deterministic: the same request (input, voice, speed, seed) always gives the
 * same samples.
 *
 * @param req see {@link SynthesisRequest}.
 * @returns `round(code points / 15 / speed × 24000)` samples (at least 2400,
 *   i.e. 100 ms) for input with anything printable; 576 samples (24 ms) of
 *   silence for empty or whitespace-only input. Peak |sample| ≤ 16384
 *   (half full scale).
 * @throws RangeError if `speed` is not a finite number in [0.25, 4].
 */
export function synthesizeSamples(req: SynthesisRequest): Int16Array {
  return renderPlan(planSpeech(req), getVoiceProfile(req.voice));
}

/**
 * Renders a precomputed plan with a voice, whole.
 *
 * @param plan timeline from {@link planSpeech}; bursts must lie within `plan.sampleCount` (they do by
 *   construction).
 * @param voice from {@link getVoiceProfile}.
 * @returns `plan.sampleCount` samples, 24 kHz mono 16-bit: the concatenation of {@link sampleChunks}.
 */
function renderPlan(plan: SpeechPlan, voice: VoiceProfile): Int16Array {
  const out = new Int16Array(plan.sampleCount);
  for (const burst of plan.bursts) renderBurst(out, 0, burst, voice);
  return out;
}

/** About how many samples {@link sampleChunks} renders at a time: 0.5 s at 24 kHz. */
export const CHUNK_SAMPLES = 12_000;

/**
 * Renders a plan piece by piece, for streaming: consecutive chunks of about `targetSamples` samples (a chunk
 * ends where no burst is sounding, so it may be longer by up to one burst), which concatenated equal the whole
 * render sample for sample.
 *
 * @param plan timeline from {@link planSpeech}.
 * @param voice from {@link getVoiceProfile}.
 * @param targetSamples the chunk length to aim for, in samples (at least 1); default {@link CHUNK_SAMPLES}.
 * @param into a zeroed buffer of at least `plan.sampleCount` samples to render into (each chunk is then a view of
 *   it, so the whole render ends up there without a copy); default: a new buffer per chunk.
 * @returns a generator of non-empty chunks covering `[0, plan.sampleCount)` in order.
 */
export function* sampleChunks(plan: SpeechPlan, voice: VoiceProfile, targetSamples: number = CHUNK_SAMPLES, into?: Int16Array): Generator<Int16Array> {
  const { bursts, sampleCount } = plan;
  const step = Math.max(1, Math.floor(targetSamples));
  let from = 0;
  let next = 0;
  while (from < sampleCount) {
    let to = Math.min(sampleCount, from + step);
    let last = next;
    // Take every burst that starts before the cut; a burst that crosses it moves the cut to its end.
    while (last < bursts.length && bursts[last]!.start < to) {
      const burst = bursts[last]!;
      to = Math.min(sampleCount, Math.max(to, burst.start + burst.length));
      last++;
    }
    const out = into ? into.subarray(from, to) : new Int16Array(to - from);
    for (let k = next; k < last; k++) renderBurst(out, from, bursts[k]!, voice);
    yield out;
    from = to;
    next = last;
  }
}

/** Writes one burst into `out`, whose first sample is sample `offset` of the whole output. */
function renderBurst(out: Int16Array, offset: number, burst: Burst, voice: VoiceProfile): void {
  const table = voice.wavetables[burst.vowel] ?? voice.wavetables[0];
  if (!table) return;
  const { length } = burst;
  const start = burst.start - offset;
  const ramp = Math.min(RAMP_SAMPLES, Math.floor(length / 3));
  const rampStep = ramp > 0 ? RAMP_SAMPLES / ramp : 0;
  const releaseStart = length - ramp;
  let phase = 0;
  let increment = burst.startHz * TABLE_STEPS_PER_HZ;
  const incrementStep = ((burst.endHz - burst.startHz) * TABLE_STEPS_PER_HZ) / length;
  let amplitude = PEAK * burst.gain;
  const amplitudeStep = (amplitude * (SUSTAIN_DECAY - 1)) / length;
  for (let n = 0; n < length; n++) {
    const index = phase | 0;
    const a = table[index] as number;
    const value = a + (phase - index) * ((table[index + 1] as number) - a);
    let envelope = 1;
    if (n < ramp) envelope = RAMP[(n * rampStep) | 0] as number;
    else if (n >= releaseStart) envelope = RAMP[((length - 1 - n) * rampStep) | 0] as number;
    out[start + n] = value * amplitude * envelope;
    phase += increment;
    if (phase >= WAVETABLE_SIZE) phase -= WAVETABLE_SIZE;
    increment += incrementStep;
    amplitude += amplitudeStep;
  }
}

function buildRamp(length: number): Float64Array {
  const ramp = new Float64Array(length + 1);
  for (let i = 0; i <= length; i++) ramp[i] = 0.5 - 0.5 * Math.cos((Math.PI * i) / length);
  return ramp;
}
