/**
 * Measuring how deep arrays and objects nest, in JSON text or in a value, in one pass and without recursion, so that
 * input of any depth is measured safely (a request body, a file of `--fixtures`, an upstream's answer) before a
 * recursive step (`JSON.parse`'s consumers, `structuredClone`, `JSON.stringify`) could overflow the stack.
 *
 * @module
 */

/**
 * The nesting depth of arrays and objects in JSON `text` (brackets inside strings do not count), stopping as soon as
 * it passes `limit`: then `limit + 1`. One pass, no parse; malformed text gives a number all the same.
 *
 * @param text JSON text (or any text: only brackets outside strings are counted).
 * @param limit the depth past which counting stops.
 */
export function jsonDepthOf(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
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
