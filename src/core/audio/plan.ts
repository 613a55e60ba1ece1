/**
 * Speech timing and intonation: turns the request text into a list of tone
 * bursts (one per syllable) placed on a sample timeline.
 *
 * Rules (all durations at speed 1.0, before the final rescale):
 * - words split on whitespace; a word gets one burst per vowel group
 *   (`beautiful` → 3), per CJK ideograph / kana / hangul syllable, per digit
 *   and per emoji or other symbol. Words of letters without Latin, Greek or
 *   Cyrillic vowels (Arabic, Hebrew, Devanagari consonants, `hmm`) get one
 *   burst per ~3 letters. Words made only of punctuation (`—`) make no sound.
 * - a burst lasts {@link SYLLABLE_BASE_MS} + {@link SYLLABLE_PER_CHAR_MS} per
 *   character it covers (capped at {@link SYLLABLE_MAX_CHARS}); syllables of
 *   one word are {@link INTRA_WORD_GAP_MS} apart.
 * - pauses: {@link WORD_GAP_MS} between words, {@link CLAUSE_PAUSE_MS} at
 *   `, ; :` (and CJK `、，；：`), {@link SENTENCE_PAUSE_MS} at `. ! ? …` (and
 *   `。！？`), {@link LINE_PAUSE_MS} at line breaks. Runs of breaks merge into
 *   the strongest one. `. , :` between two letters/digits (`3.14`, `e.g.x`,
 *   `10:30`, `1,000`) stay inside the word. Leading and trailing pauses are
 *   dropped: the audio starts and ends with a burst.
 * - durations get ±8% (bursts) and ±15% (pauses) seeded jitter, then
 *   everything is scaled by one factor so the total is exactly the target:
 *   code points / {@link CHARS_PER_SECOND} seconds ÷ speed, at least
 *   {@link MIN_SPOKEN_MS}.
 * - pitch: per sentence, a declination from +2.5% to −2.5% of the voice
 *   fundamental, ±2% seeded jitter per syllable and a fall of 0–3% within
 *   each syllable; the last syllable of a question rises 12% instead.
 */

import { SAMPLE_RATE } from './format.js';
import { combineSeeds, createPrng, hashString, mixSeed } from '../prng.js';
import type { SynthesisRequest } from './synthesize.js';
import { VOWEL_CLASSES, normaliseVoice, voiceFundamentalHz } from './voice.js';

/** Natural speaking rate used for the duration target, in characters/second. */
export const CHARS_PER_SECOND = 15;
/** Shortest output for input with anything to say, in ms. */
export const MIN_SPOKEN_MS = 100;
/** Output length for empty / whitespace-only input, in samples (one MPEG-2 layer III frame, 24 ms). */
export const SILENT_SAMPLES = 576;
/** Fixed part of a syllable burst, in ms at speed 1 (before rescaling). */
export const SYLLABLE_BASE_MS = 90;
/** Extra burst length per character of the syllable, in ms. */
export const SYLLABLE_PER_CHAR_MS = 22;
/** Characters beyond this count add no more length to a syllable. */
export const SYLLABLE_MAX_CHARS = 6;
/** Gap between syllables of one word, in ms. */
export const INTRA_WORD_GAP_MS = 25;
/** Gap between words, in ms. */
export const WORD_GAP_MS = 80;
/** Pause at `, ; :`, in ms. */
export const CLAUSE_PAUSE_MS = 200;
/** Pause at `. ! ?`, in ms. */
export const SENTENCE_PAUSE_MS = 350;
/** Pause at a line break, in ms. */
export const LINE_PAUSE_MS = 350;
/**
 * Largest relative distance between the mean pitch of a burst and the voice
 * fundamental, except for the final syllable of a question (which rises by
 * {@link QUESTION_RISE}).
 */
export const MAX_PITCH_DEVIATION = 0.06;
/** Rise of the final syllable of a question, relative. */
export const QUESTION_RISE = 0.12;

const DECLINATION = 0.025;
const PITCH_JITTER = 0.02;
const MAX_GLIDE_FALL = 0.03;
const BURST_JITTER = 0.08;
const PAUSE_JITTER = 0.15;

/**
 * One tone burst (a syllable).
 *
 * - `start`, `length`: position in the output, in samples at 24 kHz.
 * - `startHz`, `endHz`: pitch at the first and last sample (linear glide), Hz.
 * - `gain`: relative loudness in (0, 1]; 1 means a peak of half full scale.
 * - `vowel`: vowel colour 0–5 (a e i o u neutral), selects the wavetable.
 */
export interface Burst {
  readonly start: number;
  readonly length: number;
  readonly startHz: number;
  readonly endHz: number;
  readonly gain: number;
  readonly vowel: number;
}

/**
 * The timeline of one request: total length in samples (24 kHz) and the
 * bursts in time order (non-overlapping; everything else is silence).
 */
export interface SpeechPlan {
  readonly sampleCount: number;
  readonly bursts: readonly Burst[];
}

/**
 * Computes the burst timeline for a request. Pure and deterministic.
 *
 * @param req - `input` (any string; counted in Unicode code points), `voice`
 *   (any string; case and surrounding spaces are ignored), `speed` (0.25–4.0, 1 when the model ignores speed), `seed`
 *   (any number; varies jitter and intonation only).
 * @returns the plan; `sampleCount` is round(code points × 24000 / 15 / speed),
 *   at least 2400 (100 ms), or {@link SILENT_SAMPLES} with no bursts for
 *   empty/whitespace-only input.
 * @throws RangeError if `speed` is not a finite number in [0.25, 4].
 */
export function planSpeech(req: SynthesisRequest): SpeechPlan {
  const { input, voice, speed, seed } = req;
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < 0.25 || speed > 4) {
    throw new RangeError(`speed must be a number between 0.25 and 4.0, got ${String(speed)}`);
  }
  const text = tokenize(input);
  if (text.codePoints === 0 || text.onlyWhitespace) {
    return { sampleCount: SILENT_SAMPLES, bursts: [] };
  }
  if (text.kinds.length === 0) {
    // Only punctuation / marks: still say something.
    text.kinds.push(KIND_BURST);
    text.values.push(Math.min(text.codePoints, SYLLABLE_MAX_CHARS));
    text.vowels.push(NEUTRAL_VOWEL);
    text.sentenceEnds.push(0);
  }

  const targetSamples = Math.max(
    Math.round((text.codePoints * SAMPLE_RATE) / (CHARS_PER_SECOND * speed)),
    Math.round((MIN_SPOKEN_MS * SAMPLE_RATE) / 1000),
  );
  const rng = createPrng(combineSeeds(mixSeed(seed), hashString(input), hashString(normaliseVoice(voice))));

  // Nominal durations (ms) with jitter, and pitch/gain per burst.
  const count = text.kinds.length;
  const durations = new Float64Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const kind = text.kinds[i];
    const value = text.values[i] ?? 0;
    let ms: number;
    if (kind === KIND_BURST) {
      ms = (SYLLABLE_BASE_MS + SYLLABLE_PER_CHAR_MS * Math.min(value, SYLLABLE_MAX_CHARS)) * jitter(rng, BURST_JITTER);
    } else {
      ms = PAUSE_MS[value] ?? WORD_GAP_MS;
      ms *= jitter(rng, PAUSE_JITTER);
    }
    durations[i] = ms;
    total += ms;
  }

  const f0 = voiceFundamentalHz(voice);
  const samplesPerMs = targetSamples / total;
  const bursts: Burst[] = [];
  let sentenceBursts = countSentenceBursts(text, 0);
  let indexInSentence = 0;
  let clock = 0;
  let withinWord = false;
  for (let i = 0; i < count; i++) {
    const start = Math.round(clock);
    clock += (durations[i] ?? 0) * samplesPerMs;
    const end = i === count - 1 ? targetSamples : Math.round(clock);
    if (text.kinds[i] === KIND_BURST) {
      const position = sentenceBursts > 1 ? indexInSentence / (sentenceBursts - 1) : 0;
      const declination = DECLINATION - 2 * DECLINATION * position;
      const startHz = f0 * (1 + declination + (rng() * 2 - 1) * PITCH_JITTER);
      const sentenceEnd = text.sentenceEnds[i] ?? 0;
      const endHz =
        sentenceEnd === SENTENCE_QUESTION ? startHz * (1 + QUESTION_RISE) : startHz * (1 - rng() * MAX_GLIDE_FALL);
      // Word-initial syllables are a little louder.
      const gain = withinWord ? 0.65 + 0.25 * rng() : 0.85 + 0.15 * rng();
      if (end > start) {
        bursts.push({ start, length: end - start, startHz, endHz, gain, vowel: text.vowels[i] ?? NEUTRAL_VOWEL });
      }
      withinWord = true;
      indexInSentence++;
      if (sentenceEnd !== 0) {
        sentenceBursts = countSentenceBursts(text, i + 1);
        indexInSentence = 0;
      }
    } else {
      withinWord = (text.values[i] ?? 0) === BREAK_SYLLABLE;
    }
  }
  return { sampleCount: targetSamples, bursts };
}

/** Uniform factor in [1 - spread, 1 + spread). */
function jitter(rng: () => number, spread: number): number {
  return 1 + (rng() * 2 - 1) * spread;
}

function countSentenceBursts(text: Tokens, from: number): number {
  let n = 0;
  for (let i = from; i < text.kinds.length; i++) {
    if (text.kinds[i] !== KIND_BURST) continue;
    n++;
    if ((text.sentenceEnds[i] ?? 0) !== 0) break;
  }
  return n;
}

// ---------------------------------------------------------------------------
// Tokenizer

const KIND_BURST = 0;
const KIND_PAUSE = 1;

// Break strengths (pause values), weakest first.
const BREAK_SYLLABLE = 0;
const BREAK_WORD = 1;
const BREAK_CLAUSE = 2;
const BREAK_SENTENCE = 3;
const BREAK_LINE = 4;
const PAUSE_MS: readonly number[] = [INTRA_WORD_GAP_MS, WORD_GAP_MS, CLAUSE_PAUSE_MS, SENTENCE_PAUSE_MS, LINE_PAUSE_MS];

// sentenceEnds values on a burst.
const SENTENCE_STATEMENT = 1;
const SENTENCE_QUESTION = 2;

const NEUTRAL_VOWEL = VOWEL_CLASSES - 1;

// Character classes.
const C_OTHER_PUNCT = 0; // in-word punctuation: no sound, splits vowel groups
const C_SPACE = 1;
const C_NEWLINE = 2;
const C_CLAUSE = 3;
const C_SENTENCE = 4;
const C_QUESTION = 5;
const C_CONSONANT = 6; // a letter that is not a recognised vowel
const C_SYLLABIC = 7; // one syllable per character (CJK, digits, symbols)
const C_MARK = 8; // combining marks, joiners, variation selectors: ignored
const C_VOWEL = 16; // + vowel class 0..4

interface Tokens {
  codePoints: number;
  onlyWhitespace: boolean;
  /** KIND_BURST or KIND_PAUSE per event. */
  kinds: number[];
  /** Burst: characters covered. Pause: break strength. */
  values: number[];
  /** Burst: vowel class. */
  vowels: number[];
  /** Burst: 0, or SENTENCE_* if it is the last burst of a sentence. */
  sentenceEnds: number[];
}

function tokenize(input: string): Tokens {
  const kinds: number[] = [];
  const values: number[] = [];
  const vowels: number[] = [];
  const sentenceEnds: number[] = [];
  let codePoints = 0;
  let onlyWhitespace = true;

  let pendingBreak = -1; // strongest break since the last word, -1 = none
  let pendingQuestion = false;
  let inWord = false;
  let inVowelGroup = false;
  let wordSyllables = 0; // bursts emitted for the current word
  let leadingChars = 0; // chars of the current word before its first syllable
  let leadingLetters = 0; // letters among them

  const emitBreak = (strength: number): void => {
    if (strength >= BREAK_SENTENCE) {
      // Mark the last burst as a sentence end.
      const last = sentenceEnds.length - 1;
      if (last >= 0) sentenceEnds[last] = pendingQuestion ? SENTENCE_QUESTION : SENTENCE_STATEMENT;
    }
    kinds.push(KIND_PAUSE);
    values.push(strength);
    vowels.push(0);
    sentenceEnds.push(0);
  };
  const addSyllable = (chars: number, vowel: number): void => {
    if (wordSyllables > 0) emitBreak(BREAK_SYLLABLE);
    kinds.push(KIND_BURST);
    values.push(chars);
    vowels.push(vowel);
    sentenceEnds.push(0);
    wordSyllables++;
  };
  const lastBurstIndex = (): number => kinds.length - 1;
  const startWord = (): void => {
    if (inWord) return;
    inWord = true;
    inVowelGroup = false;
    wordSyllables = 0;
    leadingChars = 0;
    leadingLetters = 0;
  };
  const endWord = (): void => {
    if (!inWord) return;
    inWord = false;
    if (wordSyllables === 0) {
      if (leadingLetters > 0) {
        // Letters but no vowel we know (`hmm`, Arabic, Devanagari consonants).
        beforeSound();
        const n = Math.max(1, Math.round(leadingLetters / 3));
        const share = leadingChars / n;
        for (let k = 0; k < n; k++) addSyllable(share, NEUTRAL_VOWEL);
      } else {
        // Punctuation-only "word": behaves like a word gap.
        pendingBreak = Math.max(pendingBreak, BREAK_WORD);
      }
    }
  };
  /** Called before the first sound of a word: flush the pause before it. */
  const beforeSound = (): void => {
    if (wordSyllables > 0) return;
    if (kinds.length > 0 && pendingBreak >= BREAK_WORD) emitBreak(pendingBreak);
    else if (kinds.length > 0) emitBreak(BREAK_WORD);
    pendingBreak = -1;
    pendingQuestion = false;
  };

  const length = input.length;
  for (let i = 0; i < length; ) {
    const cp = input.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    i += width;
    codePoints++;
    let cls = classify(cp);
    if (cls !== C_SPACE && cls !== C_NEWLINE) onlyWhitespace = false;

    // `3.14`, `10:30`, `1,000`, `e.g.x`: ASCII . , : between alphanumerics stay in the word.
    if (
      inWord &&
      (cp === 0x2e || cp === 0x2c || cp === 0x3a) &&
      i < length &&
      isAsciiAlnum(input.charCodeAt(i)) &&
      i - width - 1 >= 0 &&
      isAsciiAlnum(input.charCodeAt(i - width - 1))
    ) {
      cls = C_OTHER_PUNCT;
    }

    switch (cls) {
      case C_SPACE:
        endWord();
        pendingBreak = Math.max(pendingBreak, BREAK_WORD);
        break;
      case C_NEWLINE:
        endWord();
        pendingBreak = Math.max(pendingBreak, BREAK_LINE);
        break;
      case C_CLAUSE:
        endWord();
        pendingBreak = Math.max(pendingBreak, BREAK_CLAUSE);
        break;
      case C_SENTENCE:
      case C_QUESTION:
        endWord();
        pendingBreak = Math.max(pendingBreak, BREAK_SENTENCE);
        if (cls === C_QUESTION) pendingQuestion = true;
        break;
      case C_MARK:
        if (inWord) {
          if (wordSyllables > 0) values[lastBurstIndex()] = (values[lastBurstIndex()] ?? 0) + 1;
          else leadingChars++;
        }
        break;
      case C_OTHER_PUNCT:
        startWord();
        inVowelGroup = false;
        if (wordSyllables > 0) values[lastBurstIndex()] = (values[lastBurstIndex()] ?? 0) + 1;
        else leadingChars++;
        break;
      case C_CONSONANT:
        startWord();
        inVowelGroup = false;
        if (wordSyllables > 0) values[lastBurstIndex()] = (values[lastBurstIndex()] ?? 0) + 1;
        else {
          leadingChars++;
          leadingLetters++;
        }
        break;
      case C_SYLLABIC:
        startWord();
        beforeSound();
        inVowelGroup = false;
        addSyllable(1 + leadingChars, cp % NEUTRAL_VOWEL);
        leadingChars = 0;
        leadingLetters = 0;
        break;
      default: {
        // Vowel.
        startWord();
        if (inVowelGroup && wordSyllables > 0) {
          values[lastBurstIndex()] = (values[lastBurstIndex()] ?? 0) + 1;
        } else {
          beforeSound();
          addSyllable(1 + leadingChars, cls - C_VOWEL);
          leadingChars = 0;
          leadingLetters = 0;
          inVowelGroup = true;
        }
      }
    }
  }
  endWord();
  // A trailing break only matters for the question contour of the last sentence.
  if (pendingBreak >= BREAK_SENTENCE) {
    const last = sentenceEnds.length - 1;
    if (last >= 0) sentenceEnds[last] = pendingQuestion ? SENTENCE_QUESTION : SENTENCE_STATEMENT;
  }
  return { codePoints, onlyWhitespace, kinds, values, vowels, sentenceEnds };
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

const ASCII_CLASSES = buildAsciiClasses();

function buildAsciiClasses(): Uint8Array {
  const table = new Uint8Array(128).fill(C_OTHER_PUNCT);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[a-zA-Z]/.test(ch)) table[c] = C_CONSONANT;
    else if (/[0-9]/.test(ch)) table[c] = C_SYLLABIC;
    else if (c < 0x20 || c === 0x7f) table[c] = C_MARK;
  }
  const vowels = 'aeiouy';
  const vowelClass = [0, 1, 2, 3, 4, 2];
  for (let v = 0; v < vowels.length; v++) {
    const lower = vowels.charCodeAt(v);
    table[lower] = C_VOWEL + (vowelClass[v] ?? 0);
    table[lower - 32] = C_VOWEL + (vowelClass[v] ?? 0);
  }
  for (const ch of ' \t\v\f') table[ch.charCodeAt(0)] = C_SPACE;
  table[0x0a] = C_NEWLINE;
  table[0x0d] = C_NEWLINE;
  for (const ch of ',;:') table[ch.charCodeAt(0)] = C_CLAUSE;
  for (const ch of '.!') table[ch.charCodeAt(0)] = C_SENTENCE;
  table[0x3f] = C_QUESTION;
  // Symbols that are read aloud ("plus", "dollar", "percent").
  for (const ch of '+=<>$%&@#*^~|') table[ch.charCodeAt(0)] = C_SYLLABIC;
  return table;
}

/** Non-ASCII vowels, by base-letter class, for Latin (precomposed), Greek and Cyrillic. */
const EXTRA_VOWELS: ReadonlyMap<number, number> = buildExtraVowels();

function buildExtraVowels(): Map<number, number> {
  const groups = [
    'àáâãäåāăąǎȁȃȧæɑаяαάᾶ', // a
    'èéêëēĕėęěȅȇеэєёεέηή', // e
    'ìíîïĩīĭįıǐȉȋиіїыιίϊΐýÿŷȳуюυύϋΰ', // i (and y-like)
    'òóôõöøōŏőǒȍȏȯœоοόωώ', // o
    'ùúûüũūŭůűųǔȕȗ', // u
  ];
  const map = new Map<number, number>();
  groups.forEach((group, cls) => {
    for (const ch of group) {
      map.set(ch.codePointAt(0) ?? 0, cls);
      const upper = ch.toUpperCase();
      if (upper.length === 1 || [...upper].length === 1) map.set(upper.codePointAt(0) ?? 0, cls);
    }
  });
  // у/ю (Cyrillic u, yu) sound like u rather than i.
  for (const ch of 'уУюЮ') map.set(ch.codePointAt(0) ?? 0, 4);
  return map;
}

const RE_SYLLABIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\p{Script=Yi}\p{N}\p{S}\p{Extended_Pictographic}]/u;
const RE_LETTER = /\p{L}/u;
const RE_MARK = /[\p{M}\p{Cf}\p{Cc}\p{Emoji_Modifier}]/u;
const RE_SPACE = /\s/u;

function classify(cp: number): number {
  if (cp < 128) return ASCII_CLASSES[cp] ?? C_OTHER_PUNCT;
  switch (cp) {
    case 0x2028: // line separator
    case 0x2029: // paragraph separator
    case 0x85: // next line
      return C_NEWLINE;
    case 0x3001: // 、
    case 0xff0c: // ，
    case 0xff1b: // ；
    case 0xff1a: // ：
    case 0x060c: // Arabic comma
    case 0x061b: // Arabic semicolon
      return C_CLAUSE;
    case 0x3002: // 。
    case 0xff01: // ！
    case 0xff0e: // ．
    case 0x2026: // …
    case 0x203c: // ‼
    case 0x0964: // Devanagari danda
    case 0x0965: // double danda
    case 0x06d4: // Arabic full stop
    case 0xff61: // halfwidth ideographic full stop
      return C_SENTENCE;
    case 0xff1f: // ？
    case 0x061f: // Arabic question mark
    case 0x2047: // ⁇
    case 0x2048: // ⁈
    case 0x2049: // ⁉
      return C_QUESTION;
    default:
      break;
  }
  const vowel = EXTRA_VOWELS.get(cp);
  if (vowel !== undefined) return C_VOWEL + vowel;
  const ch = String.fromCodePoint(cp);
  if (RE_SPACE.test(ch)) return C_SPACE;
  if (RE_MARK.test(ch)) return C_MARK;
  if (RE_SYLLABIC.test(ch)) return C_SYLLABIC;
  if (RE_LETTER.test(ch)) return C_CONSONANT;
  return C_OTHER_PUNCT;
}
