/**
 * The generation records the simulator knows: the fixtures' records (always there) and the records of speech
 * calls made against it, kept in a bounded store (oldest evicted first).
 *
 * @module
 */
import type { GenerationRecord } from '../fixtures/index.js';

/** Default number of records a store keeps from speech calls before evicting the oldest. */
export const DEFAULT_MAX_GENERATIONS = 10_000;

/** A bounded map of generation id → record. */
export interface GenerationStore {
  /**
   * The record and its precomputed `{"data":...}` JSON body, or `undefined` when unknown or, at `nowMs`, not
   * ready yet.
   */
  get(id: string, nowMs?: number): StoredGeneration | undefined;
  /** Stores a record readable from `readyAtMs` (epoch ms; default at once), evicting the oldest past the bound. */
  add(record: GenerationRecord, readyAtMs?: number): StoredGeneration;
  /** Drops the records added by speech calls (fixture records stay). */
  clear(): void;
  /** Number of records added by speech calls currently kept. */
  readonly size: number;
}

/** A record with its response body, serialised once when stored. */
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
 * @param maxRecords bound on records added later, default {@link DEFAULT_MAX_GENERATIONS}.
 */
export function createGenerationStore(
  fixtures: readonly GenerationRecord[],
  maxRecords = DEFAULT_MAX_GENERATIONS,
): GenerationStore {
  const known = new Map(fixtures.map((record) => [record.id, stored(record)]));
  const added = new Map<string, StoredGeneration>();
  return {
    get(id, nowMs = Infinity) {
      const entry = added.get(id) ?? known.get(id);
      return entry && nowMs >= entry.readyAt ? entry : undefined;
    },
    add(record, readyAtMs) {
      const entry = stored(record, readyAtMs);
      added.delete(record.id);
      added.set(record.id, entry);
      if (added.size > maxRecords) added.delete(added.keys().next().value as string);
      return entry;
    },
    clear: () => added.clear(),
    get size() {
      return added.size;
    },
  };
}
