/**
 * The speech inputs of the HTTP bench: one sentence and one paragraph, each with a five-letter tag that makes
 * an input distinct without changing its length or its kind of characters, so a cold (never cached) request
 * costs what the cached one cost the first time.
 *
 * @module
 */

/** Letters of a tag. */
const TAG_LETTERS = 5;

/** `n` as {@link TAG_LETTERS} lower-case letters (`0` → `aaaaa`); distinct for n < 26⁵ (11.8 million). */
export function tag(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 26 ** TAG_LETTERS) throw new RangeError(`tag: ${n} is out of range`);
  let out = '';
  for (let i = 0; i < TAG_LETTERS; i++) {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  }
  return out;
}

/** One sentence (56 characters, about 3.7 s of audio at 15 characters a second). */
export function sentence(n: number): string {
  return `The quick brown fox jumps over the lazy dog, take ${tag(n)}.`;
}

const PARAGRAPH_BODY =
  'The harbor was quiet when the first boats came back, their lanterns swinging low over the dark water. ' +
  'Along the pier the fishermen sorted the morning catch while the gulls circled above them, calling to one ' +
  'another in the grey light. A small boy sat on a coil of rope and counted the boats as they arrived, one, two, ' +
  'three, until the whole fleet was home again. Somewhere behind the warehouses a radio played an old song about ' +
  'the open sea, and the smell of fresh coffee drifted down from the cafe on the corner. By the time the sun ' +
  'broke through the clouds, the market was busy and loud.';

/** Characters of {@link paragraph}. */
export const PARAGRAPH_CHARS = 600;
if (`Take ${tag(0)}. ${PARAGRAPH_BODY}`.length !== PARAGRAPH_CHARS) throw new Error('bench/texts.ts: the paragraph must be 600 characters');

/** One paragraph of exactly {@link PARAGRAPH_CHARS} characters (about 40 s of audio). */
export function paragraph(n: number): string {
  return `Take ${tag(n)}. ${PARAGRAPH_BODY}`;
}

const WORDS = [
  'amber', 'quiet', 'harbor', 'lantern', 'ripple', 'forest', 'signal', 'copper', 'meadow', 'tunnel', 'velvet',
  'orbit', 'canyon', 'pepper', 'glacier', 'thunder', 'willow', 'marble', 'saddle', 'beacon', 'falcon', 'ember',
];

/**
 * A distinct text of exactly `chars` characters for each `n` (words drawn from `n`, ending with a full stop):
 * 150 characters is 10 s of audio at speed 1 (15 per second), 4,000 about 4.4 minutes.
 */
export function words(n: number, chars: number): string {
  let state = (n * 2654435761 + 12345) >>> 0;
  let text = `Text ${n}:`;
  while (text.length < chars) {
    state = (state * 1103515245 + 12345) >>> 0;
    text += ` ${WORDS[(state >>> 8) % WORDS.length]!}`;
  }
  return `${text.slice(0, chars - 1)}.`;
}
