/**
 * Speech timing and intonation: places the syllables and pauses of the request text (from `tokenize.ts`) on a
 * sample timeline as tone bursts, one per syllable.
 *
 * Rules (all durations at speed 1.0, before the final rescale):
 * - a burst lasts {@link SYLLABLE_BASE_MS} + {@link SYLLABLE_PER_CHAR_MS} per character it covers (capped at
 *   {@link SYLLABLE_MAX_CHARS}); syllables of one word are {@link INTRA_WORD_GAP_MS} apart.
 * - pauses: {@link WORD_GAP_MS} between words, {@link CLAUSE_PAUSE_MS} at clause breaks, {@link SENTENCE_PAUSE_MS}
 *   at sentence breaks, {@link LINE_PAUSE_MS} at line breaks. The audio starts and ends with a burst.
 * - durations get ±8% (bursts) and ±15% (pauses) seeded jitter, then everything is scaled by one factor so the
 *   total is exactly the target: code points / {@link CHARS_PER_SECOND} seconds ÷ speed, at least
 *   {@link MIN_SPOKEN_MS}.
 * - pitch: per sentence, a declination from +2.5% to −2.5% of the voice fundamental, ±2% seeded jitter per
 *   syllable and a fall of 0–3% within each syllable; the last syllable of a question rises 12% instead.
 *
 * @module
 */

import { SAMPLE_RATE } from './format.js';
import { combineSeeds, createPrng, hashString, mixSeed } from '../base/prng.js';
import { tokenize } from './tokenize.js';
import type { BreakStrength, Burst, SpeechPlan, SynthesisRequest, Token } from './types.js';
import { NEUTRAL_VOWEL, SPEED_RANGE } from './types.js';
import { normalizeVoice, voiceFundamentalHz } from './voice.js';

/** Natural speaking rate used for the duration target, in characters (code points) per second. */
const CHARS_PER_SECOND = 15;
/** Shortest output for input with anything to say, in ms. */
const MIN_SPOKEN_MS = 100;
/** Output length for empty / whitespace-only input, in samples (one MPEG-2 layer III frame, 24 ms). */
export const SILENT_SAMPLES = 576;
/** Fixed part of a syllable burst, in ms at speed 1 (before rescaling). */
const SYLLABLE_BASE_MS = 90;
/** Extra burst length per character of the syllable, in ms. */
const SYLLABLE_PER_CHAR_MS = 22;
/** Characters beyond this count add no more length to a syllable. */
const SYLLABLE_MAX_CHARS = 6;
/** Gap between syllables of one word, in ms. */
const INTRA_WORD_GAP_MS = 25;
/** Gap between words, in ms. */
const WORD_GAP_MS = 80;
/** Pause at `, ; :`, in ms. */
const CLAUSE_PAUSE_MS = 200;
/** Pause at `. ! ?`, in ms. */
const SENTENCE_PAUSE_MS = 350;
/** Pause at a line break, in ms. */
const LINE_PAUSE_MS = 350;
/**
 * Largest relative distance between the mean pitch of a burst and the voice fundamental, except for the final
 * syllable of a question (which rises by {@link QUESTION_RISE}).
 */
export const MAX_PITCH_DEVIATION = 0.06;
/** Rise of the final syllable of a question, relative. */
const QUESTION_RISE = 0.12;

const DECLINATION = 0.025;
const PITCH_JITTER = 0.02;
const MAX_GLIDE_FALL = 0.03;
const BURST_JITTER = 0.08;
const PAUSE_JITTER = 0.15;

/** Nominal pause per break strength, in ms. */
const PAUSE_MS: Readonly<Record<BreakStrength, number>> = {
  syllable: INTRA_WORD_GAP_MS,
  word: WORD_GAP_MS,
  clause: CLAUSE_PAUSE_MS,
  sentence: SENTENCE_PAUSE_MS,
  line: LINE_PAUSE_MS,
};

/**
 * Computes the burst timeline for a request. Pure and deterministic.
 *
 * @param req `input` (any string; counted in Unicode code points), `voice` (any string; case and surrounding
 *   spaces are ignored), `speed` (within `SPEED_RANGE` of `types.ts`, 1 when the model ignores speed), `seed` (any
 *   number; varies jitter and intonation only).
 * @returns the plan; `sampleCount` is round(code points × 24000 / 15 / speed), at least 2400 (100 ms), or
 *   {@link SILENT_SAMPLES} with no bursts for empty/whitespace-only input.
 * @throws RangeError if `speed` is not a finite number in [0.25, 4].
 */
export function planSpeech(req: SynthesisRequest): SpeechPlan {
  const { input, voice, speed, seed } = req;
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < SPEED_RANGE.min || speed > SPEED_RANGE.max) {
    const range = `${SPEED_RANGE.min} and ${SPEED_RANGE.max}`;
    throw new RangeError(`speed must be a number between ${range}, got ${String(speed)}`);
  }
  const text = tokenize(input);
  if (text.codePoints === 0 || text.onlyWhitespace) return { sampleCount: SILENT_SAMPLES, bursts: [] };
  // Only punctuation / marks: still say something.
  const chars = Math.min(text.codePoints, SYLLABLE_MAX_CHARS);
  const tokens: readonly Token[] =
    text.tokens.length > 0 ? text.tokens : [{ kind: 'syllable', chars, vowel: NEUTRAL_VOWEL, sentenceEnd: 'none' }];

  const targetSamples = Math.max(
    Math.round((text.codePoints * SAMPLE_RATE) / (CHARS_PER_SECOND * speed)),
    Math.round((MIN_SPOKEN_MS * SAMPLE_RATE) / 1000),
  );
  const rng = createPrng(combineSeeds(mixSeed(seed), hashString(input), hashString(normalizeVoice(voice))));

  // Nominal durations (ms) with jitter, drawn in token order.
  const durations = new Float64Array(tokens.length);
  let total = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const ms =
      token.kind === 'syllable'
        ? syllableMs(token.chars) * jitter(rng, BURST_JITTER)
        : PAUSE_MS[token.strength] * jitter(rng, PAUSE_JITTER);
    durations[i] = ms;
    total += ms;
  }

  const f0 = voiceFundamentalHz(voice);
  const samplesPerMs = targetSamples / total;
  const sentenceSizes = countSentenceSyllables(tokens);
  const bursts: Burst[] = [];
  let sentence = 0;
  let indexInSentence = 0;
  let clock = 0;
  let withinWord = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const start = Math.round(clock);
    clock += (durations[i] ?? 0) * samplesPerMs;
    const end = i === tokens.length - 1 ? targetSamples : Math.round(clock);
    if (token.kind === 'pause') {
      withinWord = token.strength === 'syllable';
      continue;
    }
    const sentenceSyllables = sentenceSizes[sentence] ?? 0;
    const position = sentenceSyllables > 1 ? indexInSentence / (sentenceSyllables - 1) : 0;
    const declination = DECLINATION - 2 * DECLINATION * position;
    const startHz = f0 * (1 + declination + (rng() * 2 - 1) * PITCH_JITTER);
    const endHz =
      token.sentenceEnd === 'question' ? startHz * (1 + QUESTION_RISE) : startHz * (1 - rng() * MAX_GLIDE_FALL);
    // Word-initial syllables are a little louder.
    const gain = withinWord ? 0.65 + 0.25 * rng() : 0.85 + 0.15 * rng();
    if (end > start) bursts.push({ start, length: end - start, startHz, endHz, gain, vowel: token.vowel });
    withinWord = true;
    indexInSentence++;
    if (token.sentenceEnd !== 'none') {
      sentence++;
      indexInSentence = 0;
    }
  }
  return { sampleCount: targetSamples, bursts };
}

/** Nominal length of a syllable burst covering `chars` characters, in ms at speed 1. */
function syllableMs(chars: number): number {
  return SYLLABLE_BASE_MS + SYLLABLE_PER_CHAR_MS * Math.min(chars, SYLLABLE_MAX_CHARS);
}

/** Uniform factor in [1 - spread, 1 + spread). */
function jitter(rng: () => number, spread: number): number {
  return 1 + (rng() * 2 - 1) * spread;
}

/** Syllables per sentence, in order (the last sentence may lack a sentence end). */
function countSentenceSyllables(tokens: readonly Token[]): number[] {
  const sizes: number[] = [];
  let count = 0;
  for (const token of tokens) {
    if (token.kind !== 'syllable') continue;
    count++;
    if (token.sentenceEnd !== 'none') {
      sizes.push(count);
      count = 0;
    }
  }
  if (count > 0) sizes.push(count);
  return sizes;
}
