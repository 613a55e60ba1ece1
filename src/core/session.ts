/**
 * Sessions: the scope of scenario counters and per-client state (`X-Mock-Session`, README "Per request:
 * headers").
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { boundedMap } from './bounded-map.js';

/** Bound of the key → session memo; the least recently used goes first past it. */
const MAX_MEMOIZED = 10_000;
const sessions = boundedMap<string, string>(MAX_MEMOIZED);

/** Longest session id kept from `X-Mock-Session`, characters. */
const MAX_SESSION_LENGTH = 200;

/**
 * The session of a request: the `X-Mock-Session` header when given (trimmed, at most
 * {@link MAX_SESSION_LENGTH} characters), else derived from the API key as
 * `key-<first 12 hex digits of SHA-256(key)>`, so tests with different keys never share state and the key
 * itself never appears in the journal.
 */
export function sessionOf(sessionHeader: string | undefined, apiKey: string): string {
  if (sessionHeader !== undefined && sessionHeader.trim() !== '') return sessionHeader.trim().slice(0, MAX_SESSION_LENGTH);
  let session = sessions.get(apiKey);
  if (session === undefined) {
    session = `key-${bytesToHex(sha256(utf8ToBytes(apiKey))).slice(0, 12)}`;
    sessions.set(apiKey, session);
  }
  return session;
}
