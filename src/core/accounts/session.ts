/**
 * Sessions and key digests: the scope of scenario counters and per-client state (`X-Mock-Session`,
 * docs/scenarios.md "Per request: headers"), and the fixed-size name every per-key store uses for an API key, so no
 * store holds a key itself (a key may be kilobytes long: state per key must not grow with it).
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { boundedMap } from '../base/bounded-map.js';

/** Longest key whose digest is memoized, characters; longer keys are hashed on each request (cost grows with length). */
const MAX_MEMOIZED_KEY_LENGTH = 256;
/**
 * Bound of the key → digest memo, entries. With keys of at most {@link MAX_MEMOIZED_KEY_LENGTH} characters and
 * 64-character digests it holds at most about 8 MiB.
 */
const MAX_MEMOIZED = 10_000;
const digests = boundedMap<string, string>(MAX_MEMOIZED);

/** Longest session id kept from `X-Mock-Session`, characters. */
const MAX_SESSION_LENGTH = 200;

/**
 * The digest of API key `key`: the 64 hex digits of its SHA-256 (UTF-8). Per-key stores (accounts, rate-limit
 * windows) are keyed by it, never by the key, so each entry's size is fixed whatever the key's length.
 */
export function keyDigest(key: string): string {
  if (key.length > MAX_MEMOIZED_KEY_LENGTH) return digestOf(key);
  let digest = digests.get(key);
  if (digest === undefined) {
    digest = digestOf(key);
    digests.set(key, digest);
  }
  return digest;
}

/** The 64 hex digits of the SHA-256 of `text` (UTF-8), not memoized: a fixed-size name for a string of any length. */
export function digestOf(text: string): string {
  // Joined at once into one flat string (`bytesToHex` adds two digits at a time: a chain of 32 concatenations,
  // which a store that keeps the digest would keep too).
  return Array.from(sha256(utf8ToBytes(text)), (byte) => HEX[byte]!).join('');
}

/** `00` to `ff`, by byte value. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Empties the key → digest memo (a pure cache: `POST /__mock/reset` frees it with every per-key store). */
export function forgetKeyDigests(): void {
  digests.clear();
}

/** The session of a request that sent no API key and no `X-Mock-Session` (it is answered 401 before any state is read). */
export const NO_KEY_SESSION = 'no-key';

/**
 * The session of a request: the `X-Mock-Session` header when given (trimmed, at most
 * {@link MAX_SESSION_LENGTH} characters, copied so it keeps no reference to the header), else derived from the
 * API key's digest ({@link keyDigest}) as `key-<first 12 hex digits of SHA-256(key)>`, so tests with different
 * keys never share state and the key itself never appears in the journal; {@link NO_KEY_SESSION} when the request
 * sent no key (`digest` undefined).
 */
export function sessionOf(sessionHeader: string | undefined, digest: string | undefined): string {
  if (sessionHeader !== undefined) {
    const trimmed = sessionHeader.trim();
    if (trimmed !== '') return trimmed.length <= MAX_SESSION_LENGTH ? trimmed : flat(trimmed.slice(0, MAX_SESSION_LENGTH));
  }
  return digest === undefined ? NO_KEY_SESSION : `key-${digest.slice(0, 12)}`;
}

/** `text` copied into a string of its own (V8 keeps a slice as a view of its parent: a long header would stay alive). */
function flat(text: string): string {
  return text.split('').join('');
}
