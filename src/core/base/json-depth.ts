/**
 * Measuring how deep arrays and objects nest, in JSON text or in a value, in one pass and without recursion, so that
 * input of any depth is measured safely (a request body, a file of `--fixtures`, an upstream's answer) before a
 * recursive step (`JSON.parse`'s consumers, `structuredClone`, `JSON.stringify`) could overflow the stack.
 *
 * @module
 */

/** What {@link jsonExtentOf} measures of JSON text: how deep arrays and objects nest, and how many items they hold. */
export interface JsonExtent {
  /** The deepest nesting of arrays and objects (1 for `{}` or `[]`). */
  depth: number;
  /** Array elements and object fields, counted as the commas, `[` and `{` (an empty array or object counts one). */
  items: number;
}

/**
 * The depth and items ({@link JsonExtent}) of JSON `text`, brackets and commas inside strings not counted, stopping as
 * soon as either passes its limit (then it is its limit + 1, and the other is what was counted so far). One pass, no
 * parse, no recursion; malformed text gives numbers all the same.
 *
 * @param text JSON text (or any text: only brackets and commas outside strings are counted).
 * @param limits the depth and the item count past which counting stops.
 */
export function jsonExtentOf(text: string, limits: { depth: number; items: number }): JsonExtent {
  let depth = 0;
  let deepest = 0;
  let items = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) i = stringEnd(text, i);
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limits.depth) break;
      if (++items > limits.items) break;
    } else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x2c && ++items > limits.items) break;
  }
  return { depth: deepest, items };
}

/**
 * The index of the quote that closes the string opened at `open` in `text` (the next `"` not escaped by an odd run of
 * backslashes), or `text.length` when it is never closed. Found with `indexOf`, so the characters of a long string
 * (base64 audio) are not looked at one by one.
 */
function stringEnd(text: string, open: number): number {
  for (let at = open; ; ) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

/**
 * The nesting depth of arrays and objects in JSON `text` (brackets inside strings do not count), stopping as soon as
 * it passes `limit`: then `limit + 1`. One pass, no parse ({@link jsonExtentOf}).
 *
 * @param text JSON text (or any text: only brackets outside strings are counted).
 * @param limit the depth past which counting stops.
 */
export function jsonDepthOf(text: string, limit: number): number {
  return jsonExtentOf(text, { depth: limit, items: Infinity }).depth;
}

/**
 * The nesting depth of arrays and objects in a value (1 for `{}` or `[]`, 0 for anything else), stopping as soon as
 * it passes `limit` (then `limit + 1`), without recursion, so a value of any depth is measured safely.
 */
export function valueDepthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest && (deepest = depth) > limit) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
