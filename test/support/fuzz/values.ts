/**
 * Generators of values: characters of every kind, short and long text, JSON scalars and nested JSON-ish values
 * with junk keys, the raw material of the request bodies (`bodies.ts`) and of the other generators.
 *
 * @module
 */
import fc from 'fast-check';
import { ALL_VOICES, LONGEST_INPUT, speechModels } from './fixtures.js';

/** `arb` in `percent` % of the runs, else `null` (shrinks towards `null`). */
export function maybe<T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: Math.round((100 - percent) * 10) }, { arbitrary: arb, weight: Math.round(percent * 10) });
}

const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u00a0', '\u2028', '\u2029', '\ufeff', '\ufffd'];
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\ude00'];
const SYMBOLS = ['😀', '👩‍👩‍👧', '🇫🇷', '日本語', 'é', 'e\u0301', 'ß', 'İ', 'Ω', 'ﷺ', '\u202e', '"', '\\', '/', '%', '{', '}', '[', ']', ',', ':', '<', '>', "'", '`', '$', '.', '?', '!'];

/** Characters of any kind: unicode, emoji, lone surrogates, control characters, JSON syntax. */
export const anyChar = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.constantFrom(...CONTROL), weight: 1 },
  { arbitrary: fc.constantFrom(...SURROGATES), weight: 1 },
  { arbitrary: fc.constantFrom(...SYMBOLS), weight: 1 },
);

/** Short text of any characters, at most `maxLength` of them (bounded, so a valid speech request stays cheap to render). */
export const anyText = (maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: anyChar, maxLength });

/**
 * A long string: one character repeated to 1,000, {@link LONGEST_INPUT} + 1, 70,000, 300,000 or 600,000 UTF-16
 * units (cheap to generate; shrinks by length). Always longer than every speech model's input limit.
 */
export const longString = fc
  .tuple(fc.constantFrom('a', 'é', '😀', '\u0000', ' ', '"', '\\'), fc.constantFrom(1_000, LONGEST_INPUT + 1, 70_000, 300_000, 600_000))
  .map(([char, length]) => char.repeat(Math.ceil(length / char.length)));

const NAN_LIKE = ['NaN', 'nan', 'Infinity', '-Infinity', '1e999', '-0', '0x10', ' 1 ', '', 'null', 'undefined', 'true', '[]', '{}'];
const HUGE = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 5e-324, -0, 2 ** 53, 1e21];

/** JSON scalars: numbers (huge, tiny, negative zero), booleans, null, number-like strings, text, real ids and voices. */
export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(...HUGE),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...NAN_LIKE),
  anyText(),
  fc.constantFrom(...speechModels.map((m) => m.id), 'openai/gpt-4o-mini', ...ALL_VOICES.slice(0, 8), 'mp3', 'pcm', 'wav', 'MP3'),
);

const JUNK_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', ' model', 'Model', 'MODEL', 'input ', 'voice\u0000', 'trace', 'stream', 'instructions', '😀', '\ud800', 'a'.repeat(300)];
/** The keys of a speech request body (`createAudioSpeech`). */
export const REAL_KEYS = ['model', 'input', 'voice', 'response_format', 'speed', 'provider', 'session_id', 'user', 'instructions', 'input_references'] as const;
/** Object keys: the real ones, junk (prototype names, case and whitespace variants, empty, long), any text. */
export const keyArb = fc.oneof(fc.constantFrom(...REAL_KEYS), fc.constantFrom(...JUNK_KEYS), anyText(12));

/** Any JSON-ish value: scalars, arrays, nested objects (with junk keys). */
export const wild: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: scalar, weight: 6 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 1 },
    { arbitrary: fc.dictionary(keyArb, tie('value'), { maxKeys: 4 }), weight: 1 },
  ),
})).value;
