/**
 * Seeded hashing and pseudo-random numbers for the whole simulator, in one place: the audio synthesizer,
 * generation ids, scenario draws, derived user ids and readiness delays all draw from here.
 *
 * Nothing here is cryptographic: these exist so that the same requests and seed always yield byte-identical
 * responses, on every platform and Node version (only 32-bit integer arithmetic is used).
 *
 * @module
 */

/** A 32-bit integer hash of `seed` and `n` (splitmix32-style finalizer); pure and fast. */
export function hash32(seed: number, n: number): number {
  let x = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(n | 0, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** A seeded float in [0, 1) for the pair (`seed`, `n`), with 2^-32 resolution. */
export function unitFloat(seed: number, n: number): number {
  return hash32(seed, n) / 0x1_0000_0000;
}

/**
 * Creates a seeded PRNG (mulberry32, by Tommy Ettinger; public domain).
 *
 * @param seed any number; it is reduced to 32 bits with {@link mixSeed}, so
 *   non-integer, negative and large seeds are all accepted (NaN and ±Infinity
 *   behave like 0).
 * @returns a function giving uniformly distributed floats in [0, 1) with
 *   2^-32 resolution and a period of 2^32.
 */
export function createPrng(seed: number): () => number {
  let state = mixSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Reduces an arbitrary JS number to an unsigned 32-bit seed without throwing
 * away its high bits (so seeds 1 and 2^32 + 1 differ).
 *
 * @param seed any number; NaN and ±Infinity map to the same value as 0.
 * @returns an integer in [0, 2^32).
 */
export function mixSeed(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  let lo: number;
  let hi: number;
  if (Number.isSafeInteger(seed)) {
    lo = seed >>> 0;
    hi = Math.floor(seed / 4294967296) >>> 0;
  } else {
    // Fractional or huge: hash the exact decimal representation.
    return hashString(String(seed));
  }
  return avalanche(lo ^ Math.imul(hi, 0x9e3779b1)) >>> 0;
}

/**
 * 32-bit FNV-1a hash over the UTF-16 code units of a string, followed by an
 * avalanche step so that similar strings (e.g. `alloy` / `alloz`) give
 * unrelated results.
 *
 * @param text any string (may be empty).
 * @returns an integer in [0, 2^32), stable across platforms and releases.
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return avalanche(h) >>> 0;
}

/**
 * Combines several 32-bit values into one seed (order-sensitive).
 *
 * @param parts integers, each treated as unsigned 32-bit.
 * @returns an integer in [0, 2^32).
 */
export function combineSeeds(...parts: number[]): number {
  let h = 0x2545f491;
  for (const part of parts) {
    h = avalanche(h ^ Math.imul(part >>> 0, 0x85ebca6b));
  }
  return h >>> 0;
}

/** murmur3 fmix32 finalizer: spreads every input bit over the whole word. */
function avalanche(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
