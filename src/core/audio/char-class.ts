/**
 * How each character of a speech input acts for the tokenizer (`tokenize.ts`): a vowel of some color, a break, a
 * space, a consonant, a character that is a syllable by itself, or a mark that only counts. Tables for ASCII,
 * precomposed Latin, Greek and Cyrillic vowels and non-ASCII breaks; Unicode properties for the rest.
 *
 * @module
 */
import type { VowelClass } from './types.js';

/**
 * How a character acts: a vowel letter is its {@link VowelClass} (a–u); otherwise `punct` (in-word punctuation:
 * silent, splits vowel groups), `space`, `newline`, `clause`, `sentence`, `question` (break characters),
 * `consonant` (a letter that is not a known vowel), `syllabic` (one syllable per character: CJK, digits, symbols)
 * or `mark` (combining marks, joiners, variation selectors, controls: counted, otherwise ignored).
 */
export type CharClass =
  | VowelClass
  | 'punct'
  | 'space'
  | 'newline'
  | 'clause'
  | 'sentence'
  | 'question'
  | 'consonant'
  | 'syllabic'
  | 'mark';

/** True for ASCII `0-9`, `A-Z`, `a-z`. */
export function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

const ASCII_CLASSES: readonly CharClass[] = buildAsciiClasses();

function buildAsciiClasses(): CharClass[] {
  const table = Array.from({ length: 128 }, (): CharClass => 'punct');
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[a-zA-Z]/.test(ch)) table[c] = 'consonant';
    else if (/[0-9]/.test(ch)) table[c] = 'syllabic';
    else if (c < 0x20 || c === 0x7f) table[c] = 'mark';
  }
  const vowels: ReadonlyArray<readonly [string, VowelClass]> = [
    ['a', 0],
    ['e', 1],
    ['i', 2],
    ['o', 3],
    ['u', 4],
    ['y', 2],
  ];
  for (const [letter, vowel] of vowels) {
    table[letter.charCodeAt(0)] = vowel;
    table[letter.toUpperCase().charCodeAt(0)] = vowel;
  }
  for (const ch of ' \t\v\f') table[ch.charCodeAt(0)] = 'space';
  table[0x0a] = 'newline';
  table[0x0d] = 'newline';
  for (const ch of ',;:') table[ch.charCodeAt(0)] = 'clause';
  for (const ch of '.!') table[ch.charCodeAt(0)] = 'sentence';
  table[0x3f] = 'question';
  // Symbols that are read aloud ("plus", "dollar", "percent").
  for (const ch of '+=<>$%&@#*^~|') table[ch.charCodeAt(0)] = 'syllabic';
  return table;
}

/** Non-ASCII vowels, by base-letter class, for Latin (precomposed), Greek and Cyrillic. */
const EXTRA_VOWELS: ReadonlyMap<number, VowelClass> = buildExtraVowels();

function buildExtraVowels(): Map<number, VowelClass> {
  const groups: ReadonlyArray<readonly [string, VowelClass]> = [
    ['àáâãäåāăąǎȁȃȧæɑаяαάᾶ', 0],
    ['èéêëēĕėęěȅȇеэєёεέηή', 1],
    ['ìíîïĩīĭįıǐȉȋиіїыιίϊΐýÿŷȳуюυύϋΰ', 2], // i (and y-like)
    ['òóôõöøōŏőǒȍȏȯœоοόωώ', 3],
    ['ùúûüũūŭůűųǔȕȗ', 4],
  ];
  const map = new Map<number, VowelClass>();
  for (const [group, vowel] of groups) {
    for (const ch of group) {
      map.set(ch.codePointAt(0) ?? 0, vowel);
      const upper = ch.toUpperCase();
      if ([...upper].length === 1) map.set(upper.codePointAt(0) ?? 0, vowel);
    }
  }
  // у/ю (Cyrillic u, yu) sound like u rather than i.
  for (const ch of 'уУюЮ') map.set(ch.codePointAt(0) ?? 0, 4);
  return map;
}

/** Break characters outside ASCII. */
const EXTRA_BREAKS: ReadonlyMap<number, CharClass> = new Map<number, CharClass>([
  [0x2028, 'newline'], // line separator
  [0x2029, 'newline'], // paragraph separator
  [0x85, 'newline'], // next line
  [0x3001, 'clause'], // 、
  [0xff0c, 'clause'], // ，
  [0xff1b, 'clause'], // ；
  [0xff1a, 'clause'], // ：
  [0x060c, 'clause'], // Arabic comma
  [0x061b, 'clause'], // Arabic semicolon
  [0x3002, 'sentence'], // 。
  [0xff01, 'sentence'], // ！
  [0xff0e, 'sentence'], // ．
  [0x2026, 'sentence'], // …
  [0x203c, 'sentence'], // ‼
  [0x0964, 'sentence'], // Devanagari danda
  [0x0965, 'sentence'], // double danda
  [0x06d4, 'sentence'], // Arabic full stop
  [0xff61, 'sentence'], // halfwidth ideographic full stop
  [0xff1f, 'question'], // ？
  [0x061f, 'question'], // Arabic question mark
  [0x2047, 'question'], // ⁇
  [0x2048, 'question'], // ⁈
  [0x2049, 'question'], // ⁉
]);

const RE_SYLLABIC =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\p{Script=Yi}\p{N}\p{S}\p{Extended_Pictographic}]/u;
const RE_LETTER = /\p{L}/u;
const RE_MARK = /[\p{M}\p{Cf}\p{Cc}\p{Emoji_Modifier}]/u;
const RE_SPACE = /\s/u;

/** The class of code point `cp`. */
export function classify(cp: number): CharClass {
  if (cp < 128) return ASCII_CLASSES[cp] ?? 'punct';
  const known = EXTRA_BREAKS.get(cp) ?? EXTRA_VOWELS.get(cp);
  if (known !== undefined) return known;
  const ch = String.fromCodePoint(cp);
  if (RE_SPACE.test(ch)) return 'space';
  if (RE_MARK.test(ch)) return 'mark';
  if (RE_SYLLABIC.test(ch)) return 'syllabic';
  if (RE_LETTER.test(ch)) return 'consonant';
  return 'punct';
}
