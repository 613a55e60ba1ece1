/**
 * A small least-recently-used cache bounded both by total size in bytes and by
 * entry count, used to keep rendered speech so repeated identical requests
 * cost a map lookup instead of a synthesis + MP3 encode.
 */

/** Default byte budget: 24 MiB (about 4 minutes of PCM, or 50 minutes of MP3). */
export const DEFAULT_CACHE_MAX_BYTES = 24 * 1024 * 1024;

/** Default entry budget. */
export const DEFAULT_CACHE_MAX_ENTRIES = 1000;

/**
 * Limits and sizing for {@link LruCache}.
 *
 * - `maxBytes`: total size budget in bytes (≥ 0; default 24 MiB). An entry
 *   larger than this on its own is never stored.
 * - `maxEntries`: entry budget (≥ 0; default 1000). 0 disables caching.
 * - `sizeOf`: size of one entry in bytes (key included if you want to count
 *   it); must be a finite number ≥ 0. Default: `value.byteLength`.
 */
export interface LruCacheOptions<V> {
  maxBytes?: number;
  maxEntries?: number;
  sizeOf?: (value: V, key: string) => number;
}

interface Slot<V> {
  value: V;
  size: number;
}

/**
 * String-keyed LRU cache with byte and entry bounds. `get` marks an entry as
 * most recently used; `set` inserts or replaces and then evicts least recently
 * used entries until both bounds hold. All operations are O(1) amortised
 * (a `Map` keeps recency order).
 */
export class LruCache<V> {
  /** Byte budget (see {@link LruCacheOptions}). */
  readonly maxBytes: number;
  /** Entry budget (see {@link LruCacheOptions}). */
  readonly maxEntries: number;
  private readonly sizeOf: (value: V, key: string) => number;
  private readonly slots = new Map<string, Slot<V>>();
  private totalBytes = 0;
  private evictionCount = 0;

  /**
   * @param options - limits; see {@link LruCacheOptions}.
   * @throws RangeError if a limit is negative or not a number.
   */
  constructor(options: LruCacheOptions<V> = {}) {
    this.maxBytes = checkLimit('maxBytes', options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES);
    this.maxEntries = checkLimit('maxEntries', options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES);
    this.sizeOf = options.sizeOf ?? defaultSizeOf;
  }

  /** Number of entries held. */
  get size(): number {
    return this.slots.size;
  }

  /** Sum of the sizes (per `sizeOf`) of the entries held, in bytes. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Entries evicted (for space, not by `clear` or replacement) so far. */
  get evictions(): number {
    return this.evictionCount;
  }

  /**
   * Looks an entry up and marks it most recently used.
   *
   * @returns the stored value, or undefined when absent.
   */
  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** True if `key` is present (does not change recency). */
  has(key: string): boolean {
    return this.slots.has(key);
  }

  /**
   * Inserts or replaces an entry as most recently used, then evicts the least
   * recently used entries until `bytes ≤ maxBytes` and `size ≤ maxEntries`.
   *
   * @returns true if stored; false if the entry alone exceeds `maxBytes` or
   *   `maxEntries` is 0 (any previous entry under `key` is then removed).
   * @throws RangeError if `sizeOf` returns a negative or non-finite number.
   */
  set(key: string, value: V): boolean {
    const size = this.sizeOf(value, key);
    if (!Number.isFinite(size) || size < 0) throw new RangeError(`invalid cache entry size ${String(size)}`);
    this.delete(key);
    if (size > this.maxBytes || this.maxEntries === 0) return false;
    this.slots.set(key, { value, size });
    this.totalBytes += size;
    for (const [oldKey, oldSlot] of this.slots) {
      if (this.totalBytes <= this.maxBytes && this.slots.size <= this.maxEntries) break;
      this.slots.delete(oldKey);
      this.totalBytes -= oldSlot.size;
      this.evictionCount++;
    }
    return true;
  }

  /**
   * Removes an entry.
   *
   * @returns true if it was present.
   */
  delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.slots.delete(key);
    this.totalBytes -= slot.size;
    return true;
  }

  /** Removes every entry (the eviction counter is kept). */
  clear(): void {
    this.slots.clear();
    this.totalBytes = 0;
  }
}

function defaultSizeOf(value: unknown): number {
  const length = (value as { byteLength?: unknown } | null)?.byteLength;
  return typeof length === 'number' ? length : 0;
}

function checkLimit(name: string, value: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new RangeError(`${name} must be a number ≥ 0, got ${String(value)}`);
  }
  return value;
}
