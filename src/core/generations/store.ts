/**
 * The generation records the simulator knows (`getGeneration`): the fixtures' records (always there) and the
 * records of speech calls made against it, kept in a bounded store (least recently used evicted first).
 *
 * @module
 */
import { boundedMap } from '../bounded-map.js';
import type { GenerationRecord } from '../fixtures/schema.js';

/** Default number of records a store keeps from speech calls before evicting the least recently used. */
export const DEFAULT_MAX_GENERATIONS = 10_000;

/** A bounded map of generation id → record. */
export interface GenerationStore {
  /**
   * The record and its precomputed `{"data":...}` JSON body, or `undefined` when unknown or, at `nowMs` (epoch
   * ms; default: any time), not ready yet.
   */
  get(id: string, nowMs?: number): StoredGeneration | undefined;
  /**
   * Stores a record readable from `readyAtMs` (epoch ms; default at once), evicting the least recently used
   * record of speech calls past the bound (fixture records are never evicted).
   */
  add(record: GenerationRecord, readyAtMs?: number): StoredGeneration;
}

/** A record with its response body, serialized once when stored. */
export interface StoredGeneration {
  /** The record's id. */
  id: string;
  /** `{"data":<record>}` as JSON text: the only copy kept, so a record costs its JSON size once. */
  body: string;
  /** When the record becomes readable, epoch ms (`-Infinity` for fixtures). */
  readyAt: number;
}

function stored(record: GenerationRecord, readyAt = -Infinity): StoredGeneration {
  return { id: record.id, body: JSON.stringify({ data: record }), readyAt };
}

/**
 * Creates a store.
 *
 * @param fixtures records that are always found (from `fixtures/generations.json`).
 * @param maxRecords bound on records added later (0 keeps none), default {@link DEFAULT_MAX_GENERATIONS}.
 */
export function createGenerationStore(fixtures: readonly GenerationRecord[], maxRecords = DEFAULT_MAX_GENERATIONS): GenerationStore {
  const known = new Map(fixtures.map((record) => [record.id, stored(record)]));
  const added = boundedMap<string, StoredGeneration>(maxRecords);
  return {
    get(id, nowMs = Infinity) {
      const entry = added.get(id) ?? known.get(id);
      return entry && nowMs >= entry.readyAt ? entry : undefined;
    },
    add(record, readyAtMs) {
      const entry = stored(record, readyAtMs);
      if (maxRecords > 0) added.set(record.id, entry);
      return entry;
    },
  };
}
