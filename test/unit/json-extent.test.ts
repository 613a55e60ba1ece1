/**
 * `jsonExtentOf` (`src/core/base/json-depth.ts`) skips a string's characters with `indexOf` instead of reading them one
 * by one: it must count exactly as a plain character-by-character scan does, for any text (escapes, unclosed strings,
 * malformed JSON) and any limits.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { jsonExtentOf } from '../../src/core/base/json-depth.js';

/** The plain scan: every character read, a backslash inside a string skipping the next one. */
function scanned(text: string, limits: { depth: number; items: number }): { depth: number; items: number } {
  let depth = 0;
  let deepest = 0;
  let items = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limits.depth) break;
      if (++items > limits.items) break;
    } else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x2c && ++items > limits.items) break;
  }
  return { depth: deepest, items };
}

it('counts as a character-by-character scan does, whatever the text and the limits', () => {
  const text = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', 'a', ' '), maxLength: 64 });
  fc.assert(
    fc.property(text, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 8 }), (t, depth, items) => {
      expect(jsonExtentOf(t, { depth, items })).toEqual(scanned(t, { depth, items }));
    }),
    { numRuns: 20_000, seed: 7 },
  );
});

it('passes over a long string without counting what it holds', () => {
  const data = `${'[{,'.repeat(1000)}\\"${'A'.repeat(100_000)}`;
  expect(jsonExtentOf(JSON.stringify({ input_audio: { data } }), { depth: 64, items: Infinity })).toEqual({ depth: 2, items: 2 });
});
