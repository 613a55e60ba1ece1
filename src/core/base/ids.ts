/**
 * Seeded, reproducible identifiers: the n-th generation id of a seed is always the same, so a seeded run gives the
 * same `X-Generation-Id`s in every mode; user ids derived from a key are stable too.
 *
 * @module
 */
import { hash32, hashString } from './prng.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** One generation id of a seed: its serial and its suffix. */
export interface AllocatedId {
  /** 0 for the first id of the gateway (over every replica of a shared store), then 1, 2, ...; seeds per-record values such as `latency`. */
  serial: number;
  /** 20 seeded characters of `[A-Za-z0-9]`: the suffix of `gen-tts-<unix seconds>-<suffix>`. */
  suffix: string;
}

/** Length of a generation id's random suffix, characters (`X-Generation-Id` of `createAudioSpeech`). */
const GENERATION_SUFFIX_LENGTH = 20;

/**
 * The `serial`-th generation id of `seed` (serials come from the gateway's store, `nextSerial`): always the same.
 *
 * @example generationIdOf(42, 0) // { serial: 0, suffix: 'mX3…' } (always the same for seed 42)
 */
export function generationIdOf(seed: number, serial: number): AllocatedId {
  const base = hash32(seed, serial);
  let suffix = '';
  for (let i = 0; i < GENERATION_SUFFIX_LENGTH; i++) suffix += ALPHANUMERIC[hash32(base, i + 1) % ALPHANUMERIC.length];
  return { serial, suffix };
}

/**
 * A `user_` id of 27 lower-case alphanumerics derived from `scope` (a key or a session): the real 402 carries
 * the key's `user_id`, and a key without one in the keys file still gets a stable id.
 */
export function userIdFor(scope: string): string {
  const h = hashString(scope);
  // Joined once, not added a character at a time: a string kept per account should be one flat string, not a
  // chain of 27 concatenations.
  const chars: string[] = [];
  for (let i = 0; i < 27; i++) chars.push(LOWER_ALPHANUMERIC[hash32(h, i) % LOWER_ALPHANUMERIC.length]!);
  return `user_${chars.join('')}`;
}
