/**
 * Voice profiles: how a voice name becomes a pitch and a timbre.
 *
 * The mock does not imitate real voices; it only has to make different voices
 * audibly (and measurably) different and keep each voice stable. A voice's
 * fundamental frequency sits on a ladder of {@link VOICE_PITCH_SLOTS} steps
 * from {@link MIN_VOICE_HZ}, each {@link VOICE_PITCH_STEP} (8%) above the
 * previous, so two voices either share a pitch or differ by at least 8%.
 * OpenAI's TTS voices (the ones OpenRouter's `openai/*` speech models accept)
 * have hand-assigned, distinct steps (low for onyx/echo, high for
 * nova/shimmer); any other name is hashed onto the ladder, so two unknown
 * names share a pitch with probability 1/16 (their timbre still differs).
 *
 * @module
 */

import { boundedMap } from '../base/bounded-map.js';
import { SAMPLE_RATE } from './format.js';
import { hashString } from '../base/prng.js';
import type { VoiceProfile } from './types.js';

/** Lowest voice fundamental in Hz (ladder step 0). */
const MIN_VOICE_HZ = 90;

/** Ratio between neighboring pitch steps: 8%. */
export const VOICE_PITCH_STEP = 1.08;

/** Number of pitch steps; the highest is 90 × 1.08^15 ≈ 285.5 Hz. */
const VOICE_PITCH_SLOTS = 16;

/**
 * Pitch steps of OpenAI's TTS voices (lower-case names). All distinct, so any
 * two of them differ by at least 8% in fundamental frequency.
 */
const KNOWN_VOICE_SLOTS: ReadonlyMap<string, number> = new Map([
  ['onyx', 0], // 90.0 Hz
  ['echo', 1], // 97.2 Hz
  ['ash', 2], // 105.0 Hz
  ['cedar', 3], // 113.4 Hz
  ['ballad', 4], // 122.4 Hz
  ['fable', 5], // 132.2 Hz
  ['verse', 6], // 142.8 Hz
  ['alloy', 8], // 166.6 Hz
  ['sage', 10], // 194.3 Hz
  ['marin', 11], // 209.8 Hz
  ['coral', 12], // 226.6 Hz
  ['nova', 13], // 244.7 Hz
  ['shimmer', 15], // 285.5 Hz
]);

/** Wavetable length (one period); a power of two so wrapping is cheap. */
export const WAVETABLE_SIZE = 2048;

/** First two formant centers (Hz) per vowel class (`VowelClass` in `types.ts`), rough adult averages. */
const FORMANTS: ReadonlyArray<readonly [number, number]> = [
  [730, 1090], // a
  [530, 1840], // e
  [290, 2290], // i
  [570, 840], // o
  [300, 870], // u
  [500, 1500], // neutral
];

/** Harmonics above this frequency (Hz) are left out of the wavetables. */
const MAX_HARMONIC_HZ = 3000;
/** Upper bound on harmonics per wavetable. */
const MAX_HARMONICS = 12;
/** How many distinct voice profiles are kept in memory. */
const PROFILE_CACHE_LIMIT = 64;

/**
 * The fundamental frequency of a voice, in Hz, before intonation.
 *
 * Voice names are compared case-insensitively after trimming (`Alloy` is
 * `alloy`). Known OpenAI voices use a fixed table; other names use a stable
 * 32-bit FNV-1a hash of the normalized name. Never throws.
 *
 * @param voice the request's `voice` string (any string, may be empty).
 * @returns a value in [90, 285.5] Hz on the 8% pitch ladder.
 */
export function voiceFundamentalHz(voice: string): number {
  return MIN_VOICE_HZ * VOICE_PITCH_STEP ** voiceSlot(normalizeVoice(voice));
}

/** Built profiles by normalized voice name; the least recently used goes first. */
const profileCache = boundedMap<string, VoiceProfile>(PROFILE_CACHE_LIMIT);

/**
 * Returns the (memoised) profile of a voice: pitch plus wavetables.
 *
 * Building a profile costs well under a millisecond; the
 * {@link PROFILE_CACHE_LIMIT} most recently used voices are kept. Never throws.
 *
 * @param voice the request's `voice` string (compared case-insensitively).
 */
export function getVoiceProfile(voice: string): VoiceProfile {
  const key = normalizeVoice(voice);
  const cached = profileCache.get(key);
  if (cached) return cached;
  const profile = buildProfile(key);
  profileCache.set(key, profile);
  return profile;
}

/**
 * The canonical form of a voice name: trimmed and lower-cased, so `Alloy `
 * and `alloy` are the same voice (same pitch, timbre and samples).
 *
 * @param voice any string.
 * @returns the normalized name (may be empty).
 */
export function normalizeVoice(voice: string): string {
  return voice.trim().toLowerCase();
}

function voiceSlot(key: string): number {
  return KNOWN_VOICE_SLOTS.get(key) ?? hashString(key) % VOICE_PITCH_SLOTS;
}

let sineTable: Float64Array | undefined;

/** One period of sin(), WAVETABLE_SIZE points, computed once. */
function getSineTable(): Float64Array {
  if (!sineTable) {
    sineTable = new Float64Array(WAVETABLE_SIZE);
    for (let i = 0; i < WAVETABLE_SIZE; i++) sineTable[i] = Math.sin((2 * Math.PI * i) / WAVETABLE_SIZE);
  }
  return sineTable;
}

function buildProfile(key: string): VoiceProfile {
  const f0Hz = MIN_VOICE_HZ * VOICE_PITCH_STEP ** voiceSlot(key);
  const hash = hashString(`timbre:${key}`);
  // Spectral tilt 0.8–1.4: how fast harmonics fall off (breathy vs. bright).
  const tilt = 0.8 + ((hash & 0xff) / 255) * 0.6;
  const harmonicCount = Math.max(2, Math.min(MAX_HARMONICS, Math.floor(MAX_HARMONIC_HZ / f0Hz)));
  // Per-harmonic phase offsets (as table index offsets), fixed per voice.
  const phaseOffsets: number[] = [];
  let h = hash;
  for (let k = 1; k <= harmonicCount; k++) {
    // A murmur2 mixing step from the voice's hash (prng.ts): kept as written so every voice sounds as before.
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
    phaseOffsets.push(k === 1 ? 0 : h % WAVETABLE_SIZE);
  }
  const wavetables: Float32Array[] = [];
  for (const [f1, f2] of FORMANTS) {
    const weights: number[] = [];
    for (let k = 1; k <= harmonicCount; k++) {
      const hz = k * f0Hz;
      const resonance =
        1 + 1.6 * Math.exp(-(((hz - f1) / 160) ** 2)) + 0.7 * Math.exp(-(((hz - f2) / 260) ** 2));
      weights.push(resonance / k ** tilt);
    }
    wavetables.push(buildWavetable(weights, phaseOffsets));
  }
  return Object.freeze({ key, f0Hz, wavetables: Object.freeze(wavetables) });
}

function buildWavetable(weights: readonly number[], phaseOffsets: readonly number[]): Float32Array {
  const sine = getSineTable();
  const mask = WAVETABLE_SIZE - 1;
  const acc = new Float64Array(WAVETABLE_SIZE);
  for (let k = 1; k <= weights.length; k++) {
    const weight = weights[k - 1] ?? 0;
    const offset = phaseOffsets[k - 1] ?? 0;
    for (let i = 0; i < WAVETABLE_SIZE; i++) acc[i] = (acc[i] ?? 0) + weight * (sine[(i * k + offset) & mask] ?? 0);
  }
  let peak = 0;
  for (let i = 0; i < WAVETABLE_SIZE; i++) peak = Math.max(peak, Math.abs(acc[i] ?? 0));
  const table = new Float32Array(WAVETABLE_SIZE + 1);
  const scale = peak > 0 ? 1 / peak : 0;
  for (let i = 0; i < WAVETABLE_SIZE; i++) table[i] = (acc[i] ?? 0) * scale;
  table[WAVETABLE_SIZE] = table[0] ?? 0;
  return table;
}

/** Exposed for the renderer: converts Hz to table-index increment per sample. */
export const TABLE_STEPS_PER_HZ = WAVETABLE_SIZE / SAMPLE_RATE;
