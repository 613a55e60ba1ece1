/**
 * Text to speech tokens: splits the request text into syllables and the pauses between them, for the planner
 * (`plan.ts`).
 *
 * Rules:
 * - words split on whitespace; a word gets one syllable per vowel group (`beautiful` → 3), per CJK ideograph /
 *   kana / hangul syllable, per digit and per emoji or other symbol. Words of letters without Latin, Greek or
 *   Cyrillic vowels (Arabic, Hebrew, Devanagari consonants, `hmm`) get one syllable per ~3 letters. Words made
 *   only of punctuation (`—`) make no sound.
 * - a syllable covers its vowel group (or character) and the consonants and in-word punctuation after it; the
 *   first syllable of a word also covers those before it. Combining marks count as characters of the syllable
 *   they follow.
 * - breaks: `word` at whitespace, `clause` at `, ; :` (and CJK `、，；：`), `sentence` at `. ! ? …` (and
 *   `。！？`), `line` at line breaks; runs of breaks merge into the strongest one. `. , :` between two ASCII
 *   letters/digits (`3.14`, `e.g.x`, `10:30`, `1,000`) stay inside the word. Leading and trailing breaks are
 *   dropped.
 * - a `sentence` or `line` break marks the syllable before it as a sentence end, a question if a `?` was among
 *   the merged breaks.
 *
 * @module
 */

import { classify, isAsciiAlnum } from './char-class.js';
import type { BreakStrength, SyllableToken, Token, TokenizedText, VowelClass } from './types.js';
import { NEUTRAL_VOWEL } from './types.js';

/** Rank of each break strength, weakest first. */
const BREAK_RANK: Readonly<Record<BreakStrength, number>> = { syllable: 0, word: 1, clause: 2, sentence: 3, line: 4 };

type MutableSyllable = { -readonly [K in keyof SyllableToken]: SyllableToken[K] };

/**
 * Splits text into syllables and pauses. Pure; O(code points).
 *
 * @param input any string; counted in Unicode code points (a lone surrogate counts as one).
 * @returns see {@link TokenizedText}. Never throws.
 */
export function tokenize(input: string): TokenizedText {
  const tokens: Token[] = [];
  let codePoints = 0;
  let onlyWhitespace = true;

  let pendingBreak: BreakStrength | undefined; // strongest break since the last word
  let pendingQuestion = false;
  let inWord = false;
  let inVowelGroup = false;
  let lastSyllable: MutableSyllable | undefined; // always the last token when pauses are emitted
  let wordSyllable: MutableSyllable | undefined; // latest syllable of the current word, if it has one yet
  let leadingChars = 0; // chars of the current word before its first syllable
  let leadingLetters = 0; // letters among them

  const merge = (strength: BreakStrength): void => {
    if (pendingBreak === undefined || BREAK_RANK[strength] > BREAK_RANK[pendingBreak]) pendingBreak = strength;
  };
  const markSentenceEnd = (): void => {
    if (lastSyllable) lastSyllable.sentenceEnd = pendingQuestion ? 'question' : 'statement';
  };
  const emitBreak = (strength: BreakStrength): void => {
    if (BREAK_RANK[strength] >= BREAK_RANK.sentence) markSentenceEnd();
    tokens.push({ kind: 'pause', strength });
  };
  const addSyllable = (chars: number, vowel: VowelClass): void => {
    if (wordSyllable) emitBreak('syllable');
    const syllable: MutableSyllable = { kind: 'syllable', chars, vowel, sentenceEnd: 'none' };
    tokens.push(syllable);
    wordSyllable = syllable;
    lastSyllable = syllable;
  };
  /** Called before the first sound of a word: flushes the pause before it. */
  const beforeSound = (): void => {
    if (wordSyllable) return;
    if (tokens.length > 0) emitBreak(pendingBreak ?? 'word');
    pendingBreak = undefined;
    pendingQuestion = false;
  };
  /** Counts a silent character of the current word. */
  const addSilentChar = (letter: boolean): void => {
    if (wordSyllable) wordSyllable.chars++;
    else {
      leadingChars++;
      if (letter) leadingLetters++;
    }
  };
  const startWord = (): void => {
    if (inWord) return;
    inWord = true;
    inVowelGroup = false;
    wordSyllable = undefined;
    leadingChars = 0;
    leadingLetters = 0;
  };
  const startSyllable = (vowel: VowelClass): void => {
    beforeSound();
    addSyllable(1 + leadingChars, vowel);
    leadingChars = 0;
    leadingLetters = 0;
  };
  const endWord = (): void => {
    if (!inWord) return;
    inWord = false;
    if (wordSyllable) return;
    if (leadingLetters > 0) {
      // Letters but no vowel we know (`hmm`, Arabic, Devanagari consonants).
      beforeSound();
      const n = Math.max(1, Math.round(leadingLetters / 3));
      const share = leadingChars / n;
      for (let k = 0; k < n; k++) addSyllable(share, NEUTRAL_VOWEL);
    } else {
      merge('word'); // a punctuation-only "word" acts as a word gap
    }
  };

  const length = input.length;
  for (let i = 0; i < length; ) {
    const cp = input.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    i += width;
    codePoints++;
    let cls = classify(cp);
    if (cls !== 'space' && cls !== 'newline') onlyWhitespace = false;
    if (inWord && isInWordSeparator(input, cp, i, width)) cls = 'punct';
    if (typeof cls === 'number') {
      // A vowel: opens a syllable, or extends the vowel group of the current one.
      startWord();
      if (inVowelGroup && wordSyllable) wordSyllable.chars++;
      else {
        startSyllable(cls);
        inVowelGroup = true;
      }
      continue;
    }
    switch (cls) {
      case 'space':
        endWord();
        merge('word');
        break;
      case 'newline':
        endWord();
        merge('line');
        break;
      case 'clause':
        endWord();
        merge('clause');
        break;
      case 'sentence':
      case 'question':
        endWord();
        merge('sentence');
        if (cls === 'question') pendingQuestion = true;
        break;
      case 'mark':
        if (inWord && wordSyllable) wordSyllable.chars++;
        else if (inWord) leadingChars++;
        break;
      case 'punct':
      case 'consonant':
        startWord();
        inVowelGroup = false;
        addSilentChar(cls === 'consonant');
        break;
      case 'syllabic':
        startWord();
        inVowelGroup = false;
        startSyllable((cp % NEUTRAL_VOWEL) as VowelClass);
        break;
    }
  }
  endWord();
  // A trailing break only matters for the intonation of the last sentence.
  if (pendingBreak !== undefined && BREAK_RANK[pendingBreak] >= BREAK_RANK.sentence) markSentenceEnd();
  return { codePoints, onlyWhitespace, tokens };
}

/**
 * True for ASCII `. , :` between two ASCII letters/digits (`3.14`, `10:30`, `1,000`, `e.g.x`): such a character
 * stays inside the word. `next` is the index after the character, `width` its length in UTF-16 units.
 */
function isInWordSeparator(input: string, cp: number, next: number, width: number): boolean {
  return (
    (cp === 0x2e || cp === 0x2c || cp === 0x3a) &&
    next < input.length &&
    isAsciiAlnum(input.charCodeAt(next)) &&
    next - width - 1 >= 0 &&
    isAsciiAlnum(input.charCodeAt(next - width - 1))
  );
}
