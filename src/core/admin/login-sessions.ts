/**
 * The login sessions of the standalone server's admin API (`guard.ts`, "Token"): what the login cookie carries
 * instead of the admin token.
 *
 * @module
 */

/** Most login sessions a server keeps ({@link AdminSessions}); past it, the oldest is forgotten. */
export const MAX_ADMIN_SESSIONS = 64;

/**
 * The login sessions of one server: random ids handed to browsers in the login cookie instead of the admin token,
 * the newest {@link MAX_ADMIN_SESSIONS} kept (an older one must log in again). In memory only: a restart logs every
 * browser out. Ids come from `globalThis.crypto.getRandomValues` (Node.js and browsers alike).
 */
export class AdminSessions {
  /** The ids issued, oldest first (a `Set` keeps insertion order). */
  readonly #ids = new Set<string>();
  readonly #max: number;

  /** @param max most ids kept (at least 1), default {@link MAX_ADMIN_SESSIONS}. */
  constructor(max: number = MAX_ADMIN_SESSIONS) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** A new session id (64 lower-case hex digits: 256 random bits), kept; the oldest is dropped past the bound. */
  issue(): string {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
    let id = '';
    for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
    this.#ids.add(id);
    if (this.#ids.size > this.#max) this.#ids.delete(this.#ids.values().next().value!);
    return id;
  }

  /** Whether `id` was issued and is still kept. */
  has(id: string | undefined): boolean {
    return id !== undefined && this.#ids.has(id);
  }

  /** Number of ids kept. */
  get size(): number {
    return this.#ids.size;
  }
}
