/**
 * Sessions: the scope of scenario counters and per-client state (DESIGN.md, `X-Mock-Session`).
 *
 * @module
 */
import { createHash } from 'node:crypto';

const cache = new Map<string, string>();

/**
 * The session of a request: the `X-Mock-Session` header when given, else derived from the API key as
 * `key-<first 12 hex digits of SHA-256(key)>`, so tests with different keys never share state and the key
 * itself never appears in the journal.
 */
export function sessionOf(sessionHeader: string | undefined, apiKey: string): string {
  if (sessionHeader !== undefined && sessionHeader.trim() !== '') return sessionHeader.trim().slice(0, 200);
  let session = cache.get(apiKey);
  if (session === undefined) {
    session = `key-${createHash('sha256').update(apiKey).digest('hex').slice(0, 12)}`;
    if (cache.size > 10_000) cache.clear();
    cache.set(apiKey, session);
  }
  return session;
}
