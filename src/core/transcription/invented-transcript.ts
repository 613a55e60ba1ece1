/**
 * The transcript of audio the simulator neither said nor was given a transcript for (`docs/transcription.md`,
 * "Where a transcript comes from"): English-looking sentences drawn from the gateway's seed and the audio's SHA-256,
 * so the same clip always reads the same, and two clips read differently. About {@link WORDS_PER_SECOND} words a
 * second of audio, evenly spaced.
 *
 * @module
 */
import { combineSeeds, createPrng, hashString } from '../base/prng.js';
import type { TimedWord } from './word-times.js';

/** Words per second of audio (a relaxed English speaking rate, about 150 words a minute). */
export const WORDS_PER_SECOND = 2.5;

/** Words of a sentence, at least and at most. */
const SENTENCE_WORDS = { min: 5, max: 14 } as const;

/** Common English words the sentences are drawn from. */
const VOCABULARY = (
  'the a an this that these our your their my we you they it he she there here what which who when where how why ' +
  'is are was were be been have has had do does did will would can could should may might must ' +
  'time year day week people way thing world life hand part place case point group number fact ' +
  'work home water room mother father family student story question answer idea service order ' +
  'report plan team voice music city road river morning evening window garden market letter table ' +
  'make take give find tell ask call keep bring begin show hear play run move live believe hold ' +
  'write stand learn change lead understand watch follow stop speak read spend grow open walk ' +
  'good new first last long great little own other old right big high different small large next ' +
  'early young important public bad same able clear quiet bright simple ready warm careful ' +
  'about after again always before often never soon today together very well still almost already ' +
  'and but or so because if while until although since then also just only even really'
).split(' ');

/**
 * Invents the transcript of a clip.
 *
 * @param digest the clip's SHA-256, hex.
 * @param seed the gateway's seed.
 * @param seconds the clip's length, seconds (≥ 0).
 * @returns `text` (sentences, each capitalized and ending with a period; `''` for a clip under 0.2 s) and its
 *   `words` with their times (seconds).
 */
export function inventTranscript(digest: string, seed: number, seconds: number): { text: string; words: TimedWord[] } {
  const count = Math.round(seconds * WORDS_PER_SECOND);
  const random = createPrng(combineSeeds(seed, hashString(digest)));
  const slot = count === 0 ? 0 : seconds / count;
  const words: TimedWord[] = [];
  let text = '';
  let left = 0;
  for (let i = 0; i < count; i++) {
    let word = VOCABULARY[Math.floor(random() * VOCABULARY.length)]!;
    const opens = left === 0;
    if (opens) left = Math.min(count - i, SENTENCE_WORDS.min + Math.floor(random() * (SENTENCE_WORDS.max - SENTENCE_WORDS.min + 1)));
    if (opens) word = word[0]!.toUpperCase() + word.slice(1);
    left--;
    const token = left === 0 ? `${word}.` : word;
    if (text !== '') text += ' ';
    const from = text.length;
    text += token;
    const start = Math.round((i + 0.1) * slot * 1000) / 1000;
    const end = Math.round((i + 0.9) * slot * 1000) / 1000;
    words.push({ word, start, end, from, to: text.length });
  }
  return { text, words };
}
