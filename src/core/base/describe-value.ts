/**
 * How a request's value is named in the gateway's 400 messages (`<field>: must be ..., got <value>`).
 *
 * @module
 */

/** Characters of a string value quoted in a message; a longer one is cut there and ends with `…`. */
export const QUOTED_STRING_CHARS = 100;

/**
 * `text` JSON-quoted for an error message, cut to {@link QUOTED_STRING_CHARS} characters with `…`.
 *
 * @example quoted('clip.bin') // '"clip.bin"'
 */
export function quoted(text: string): string {
  return JSON.stringify(text.length > QUOTED_STRING_CHARS ? `${text.slice(0, QUOTED_STRING_CHARS)}…` : text);
}

/**
 * `value` named for an error message: `null`, `an array`, `an object`, `number 3`, `boolean true`, or `string "x"`
 * ({@link quoted}: a long value is not sent back whole).
 *
 * @example describeValue('wav') // 'string "wav"'
 * @example describeValue(Number.NaN) // 'number NaN' (JSON.stringify would say null)
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string ${quoted(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
