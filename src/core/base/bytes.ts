/**
 * Byte-array helpers of the core (no `Buffer`: the core also runs in browsers).
 *
 * @module
 */

/**
 * Joins byte arrays in order.
 *
 * @param pieces the arrays (not changed).
 * @returns the only piece itself (not a copy) when there is one, a new array of their total length otherwise
 *   (empty for none).
 */
export function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  let total = 0;
  for (const piece of pieces) total += piece.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
