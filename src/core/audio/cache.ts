/**
 * The rendered-speech cache: a least-recently-used map bounded both by total size in bytes and by entry count, so
 * repeated identical requests cost a lookup instead of a synthesis + MP3 encode. A thin layer over `LRUCache` of
 * the `lru-cache` package (the project's one bounded-map implementation) that adds the byte and eviction counts
 * the renderer reports (`index.ts`).
 *
 * @module
 */

import { LRUCache } from 'lru-cache';

/**
 * Default byte budget: 8 MiB (about 3 minutes of PCM at 48,000 bytes a second, or 17 minutes of MP3 at 8,000 bytes
 * a second). Cached bodies are off-heap buffers that stay resident, so the budget is part of the standalone
 * server's resident memory (bench/README.md, "Resident memory", for how the default was chosen).
 */
export const DEFAULT_CACHE_MAX_BYTES = 8 * 1024 * 1024;

/** Default entry budget. */
export const DEFAULT_CACHE_MAX_ENTRIES = 1000;

/**
 * Limits and sizing for {@link LruCache}.
 *
 * - `maxBytes`: total size budget in bytes (≥ 0, fractions dropped; default 8 MiB). An entry larger than this on
 *   its own is never stored.
 * - `maxEntries`: entry budget (≥ 0, fractions dropped; default 1000). 0 disables caching.
 * - `sizeOf`: size of one entry in bytes (key included if you want to count it); must be a finite number ≥ 0,
 *   counted rounded up to a whole number of bytes, at least 1 (lru-cache requires positive integer sizes).
 *   Default: `value.byteLength`.
 */
export interface LruCacheOptions<V> {
  maxBytes?: number;
  maxEntries?: number;
  sizeOf?: (value: V, key: string) => number;
}

/**
 * String-keyed LRU cache with byte and entry bounds. `get` marks an entry as most recently used; `set` inserts or
 * replaces and then evicts least recently used entries until both bounds hold. All operations are O(1).
 */
export class LruCache<V extends object> {
  /** Byte budget (see {@link LruCacheOptions}). */
  readonly maxBytes: number;
  /** Entry budget (see {@link LruCacheOptions}). */
  readonly maxEntries: number;
  private readonly sizeOf: (value: V, key: string) => number;
  /** Absent when a limit is 0: nothing is ever stored. */
  private readonly entries: LRUCache<string, V> | undefined;
  private evictionCount = 0;

  /**
   * @param options limits; see {@link LruCacheOptions}.
   * @throws RangeError if a limit is negative or not a number.
   */
  constructor(options: LruCacheOptions<V> = {}) {
    this.maxBytes = checkLimit('maxBytes', options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES);
    this.maxEntries = checkLimit('maxEntries', options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES);
    this.sizeOf = options.sizeOf ?? defaultSizeOf;
    if (this.maxBytes < 1 || this.maxEntries < 1) return;
    this.entries = new LRUCache<string, V>({
      // 0 means "no bound" to lru-cache.
      max: Number.isFinite(this.maxEntries) ? this.maxEntries : 0,
      maxSize: Number.isFinite(this.maxBytes) ? this.maxBytes : Number.MAX_SAFE_INTEGER,
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') this.evictionCount++;
      },
    });
  }

  /** Number of entries held. */
  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** Sum of the sizes (per `sizeOf`, rounded up) of the entries held, in bytes. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** Entries evicted (for space, not by `clear`, `delete` or replacement) so far. */
  get evictions(): number {
    return this.evictionCount;
  }

  /**
   * Looks an entry up and marks it most recently used.
   *
   * @returns the stored value, or undefined when absent.
   */
  get(key: string): V | undefined {
    return this.entries?.get(key);
  }

  /** True if `key` is present (does not change recency). */
  has(key: string): boolean {
    return this.entries?.has(key) ?? false;
  }

  /**
   * Inserts or replaces an entry as most recently used, then evicts the least recently used entries until
   * `bytes ≤ maxBytes` and `size ≤ maxEntries`.
   *
   * @returns true if stored; false if the entry alone exceeds `maxBytes` or a limit is 0 (any previous entry
   *   under `key` is then removed).
   * @throws RangeError if `sizeOf` returns a negative or non-finite number.
   */
  set(key: string, value: V): boolean {
    const size = this.sizeOf(value, key);
    if (!Number.isFinite(size) || size < 0) throw new RangeError(`invalid cache entry size ${String(size)}`);
    const bytes = Math.max(1, Math.ceil(size));
    if (!this.entries || bytes > this.maxBytes) {
      this.delete(key);
      return false;
    }
    this.entries.set(key, value, { size: bytes });
    return true;
  }

  /**
   * Removes an entry.
   *
   * @returns true if it was present.
   */
  delete(key: string): boolean {
    return this.entries?.delete(key) ?? false;
  }

  /** Removes every entry (the eviction counter is kept). */
  clear(): void {
    this.entries?.clear();
  }
}

function defaultSizeOf(value: unknown): number {
  const length = (value as { byteLength?: unknown } | null)?.byteLength;
  return typeof length === 'number' ? length : 0;
}

/** Validates a limit and drops its fraction (lru-cache takes whole numbers). */
function checkLimit(name: string, value: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new RangeError(`${name} must be a number ≥ 0, got ${String(value)}`);
  }
  return Math.floor(value);
}
