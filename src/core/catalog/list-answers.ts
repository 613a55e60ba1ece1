/**
 * The answers of the catalog's list reads (`getModels`, `listModelsCount`), memoized by their query: the catalog
 * never changes after it is built, so the same query gives the same text, except where the simulator's clock
 * enters (the age filters `min_age_days` and `max_age_days`, never memoized). A saved real catalog of several
 * hundred models (`docs/recording.md`) costs milliseconds to filter and serialize; memoized, a repeated list is a
 * lookup, kept as UTF-8 bytes (as the catalog keeps a record's answer), so neither the journal nor the adapter
 * encodes or measures the text again.
 *
 * @module
 */
import { boundedMap, type BoundedMap } from '../base/bounded-map.js';
import type { Catalog } from './catalog.js';

/** Most list answers kept per catalog (least recently used dropped first). */
const MAX_ANSWERS = 256;
/** Longest query string memoized, characters (a longer one is answered, not kept). */
const MAX_QUERY_LENGTH = 1024;
/** Query parameters whose answer depends on the clock. */
const CLOCK_DEPENDENT = ['min_age_days', 'max_age_days'];

const answers = new WeakMap<Catalog, BoundedMap<string, Uint8Array>>();
const utf8 = new TextEncoder();

/**
 * The answer of list read `operation` with raw query `query` on `catalog`, as UTF-8 bytes (shared between calls:
 * never write into them): memoized, or made by `make` (its JSON text; it may throw: nothing is kept then).
 *
 * @example const body = listAnswer(ctx.catalog, 'models', request.query, () => JSON.stringify(page));
 */
export function listAnswer(catalog: Catalog, operation: 'models' | 'models-count', query: string, make: () => string): Uint8Array {
  // Names as the query's reader decodes them (`min%5Fage_days` is `min_age_days`).
  const names = new URLSearchParams(query);
  if (query.length > MAX_QUERY_LENGTH || CLOCK_DEPENDENT.some((name) => names.has(name))) return utf8.encode(make());
  let kept = answers.get(catalog);
  if (!kept) answers.set(catalog, (kept = boundedMap<string, Uint8Array>(MAX_ANSWERS)));
  const key = `${operation}?${query}`;
  let answer = kept.get(key);
  if (answer === undefined) {
    answer = utf8.encode(make());
    kept.set(key, answer);
  }
  return answer;
}
