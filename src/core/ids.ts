/**
 * Seeded, reproducible identifiers: the n-th id of a seed is always the same, so a seeded run gives the same
 * `X-Generation-Id`s in both modes.
 *
 * @module
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 32-bit integer hash of `seed` and `n` (splitmix32-style finaliser); pure and fast. */
export function hash32(seed: number, n: number): number {
  let x = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(n | 0, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A sequence of seeded ids. Each `next()` call returns `length` characters from `[A-Za-z0-9]`.
 *
 * @example
 * const ids = createIdSequence(42); ids.next(20) // 'mX3…' (always the same for seed 42)
 */
export function createIdSequence(seed: number): { next(length: number): string; reset(): void } {
  let counter = 0;
  return {
    next(length) {
      const base = hash32(seed, counter++);
      let out = '';
      for (let i = 0; i < length; i++) out += ALPHABET[hash32(base, i + 1) % ALPHABET.length];
      return out;
    },
    reset() {
      counter = 0;
    },
  };
}

/** A seeded float in [0, 1) for the pair (`seed`, `n`). */
export function unitFloat(seed: number, n: number): number {
  return hash32(seed, n) / 0x1_0000_0000;
}
