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

/**
 * The bound of every per-key and per-session store (accounts, rate-limit windows, scenario counters): 100,000
 * entries, far more than a test run makes, small enough that a load test cannot grow memory without limit.
 */
export const TRAFFIC_BOUND = 100_000;

/** A map of at most `max` entries; see the module's eviction rule. */
export type BoundedMap<K extends NonNullable<unknown>, V extends NonNullable<unknown>> = LRUCache<K, V>;

const countOne = () => 1;

/**
 * Creates a map bounded to `max` entries (at least 1). Unlike `new LRUCache({ max })`, it allocates nothing up
 * front (lru-cache preallocates `max` slots, which for the 100,000-entry bounds cost tens of ms at start-up), so
 * a bound can be generous at no cost until the entries exist.
 *
 * @example
 * const windows = boundedMap<string, Window>(TRAFFIC_BOUND);
 */
export function boundedMap<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(max: number): BoundedMap<K, V> {
  return new LRUCache<K, V>({ maxSize: Math.max(1, Math.floor(max)), sizeCalculation: countOne });
}
