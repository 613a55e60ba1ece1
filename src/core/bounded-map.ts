/**
 * The one bounded map of the simulator: every per-key, per-session and per-record store that grows with traffic
 * (accounts, rate-limit windows, scenario counters, generation records, memoized catalog answers and sessions,
 * voice profiles) is one of these, built on `lru-cache`.
 *
 * Eviction rule, everywhere: past the bound, the least recently used entry goes first; a `get` or a `set` counts
 * as a use.
 *
 * @module
 */
import { LRUCache } from 'lru-cache';

/** A map of at most `max` entries; see the module's eviction rule. */
export type BoundedMap<K extends NonNullable<unknown>, V extends NonNullable<unknown>> = LRUCache<K, V>;

const countOne = () => 1;

/**
 * Creates a map bounded to `max` entries (at least 1). Unlike `new LRUCache({ max })`, it allocates nothing up
 * front (lru-cache preallocates `max` slots, which for the 100,000-entry bounds cost tens of ms at start-up), so
 * a bound can be generous at no cost until the entries exist.
 *
 * @example
 * const windows = boundedMap<string, Window>(100_000);
 */
export function boundedMap<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(max: number): BoundedMap<K, V> {
  return new LRUCache<K, V>({ maxSize: Math.max(1, Math.floor(max)), sizeCalculation: countOne });
}
