/**
 * The generation records the simulator knows (`getGeneration`): the fixtures' records (always there, their JSON
 * made once) and the records of speech calls made against it, kept in a bounded store (least recently used evicted
 * first) as their compact facts (`SpeechGeneration`, `speech-record.ts`) and serialized when looked up.
 *
 * @module
 */
import { boundedMap } from '../bounded-map.js';
import type { GenerationRecord } from '../config/fixture-schema.js';

/** A record kept compact and expanded on lookup (`SpeechGeneration` of `speech-record.ts`). */
export interface CompactGeneration {
  /** The record's id (`gen-tts-...`). */
  readonly id: string;
  /** The whole record. */
  record(): GenerationRecord;
}

/** Default number of records a store keeps from speech calls before evicting the least recently used. */
export const DEFAULT_MAX_GENERATIONS = 10_000;

/** A bounded map of generation id → record. */
export interface GenerationStore {
  /**
   * The record and its `{"data":...}` JSON body, or `undefined` when unknown or, at `nowMs` (epoch ms; default:
   * any time), not ready yet.
   */
  get(id: string, nowMs?: number): StoredGeneration | undefined;
  /**
   * Stores a record readable from `readyAtMs` (epoch ms; default at once), evicting the least recently used
   * record of speech calls past the bound (fixture records are never evicted).
   */
  add(record: CompactGeneration, readyAtMs?: number): void;
}

/** A record found in the store. */
export interface StoredGeneration {
  /** The record's id. */
  readonly id: string;
  /**
   * `{"data":<record>}` as JSON: UTF-8 bytes made once for a fixture (shared between calls: never write into them),
   * text made on each lookup for a speech call's record (kept as its facts, see `speech-record.ts`).
   */
  readonly body: string | Uint8Array;
  /** When the record becomes readable, epoch ms (`-Infinity` for fixtures). */
  readonly readyAt: number;
}

const utf8 = new TextEncoder();

/** A speech call's record as held: its facts and when it becomes readable. */
interface Held {
  readonly record: CompactGeneration;
  readonly readyAt: number;
}

/**
 * Creates a store.
 *
 * @param fixtures records that are always found (from `fixtures/generations.json`).
 * @param maxRecords bound on records added later (0 keeps none), default {@link DEFAULT_MAX_GENERATIONS}.
 */
export function createGenerationStore(fixtures: readonly GenerationRecord[], maxRecords = DEFAULT_MAX_GENERATIONS): GenerationStore {
  const known = new Map<string, StoredGeneration>(
    fixtures.map((record) => [record.id, { id: record.id, body: utf8.encode(JSON.stringify({ data: record })), readyAt: -Infinity }]),
  );
  const added = boundedMap<string, Held>(maxRecords);
  return {
    get(id, nowMs = Infinity) {
      const held = added.get(id);
      if (held) return nowMs >= held.readyAt ? { id, body: JSON.stringify({ data: held.record.record() }), readyAt: held.readyAt } : undefined;
      const fixture = known.get(id);
      return fixture && nowMs >= fixture.readyAt ? fixture : undefined;
    },
    add(record, readyAtMs = -Infinity) {
      if (maxRecords > 0) added.set(record.id, { record, readyAt: readyAtMs });
    },
  };
}
