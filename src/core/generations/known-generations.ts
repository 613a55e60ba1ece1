/**
 * The generation records the simulator knows (`getGeneration`): the fixtures' records (always there, their JSON
 * made once) and the records of speech calls made against it, kept in a bounded store (least recently used evicted
 * first) in the gateway's store (`store/types.ts`): in memory as their compact facts (`SpeechGeneration`,
 * `speech-generation.ts`), serialized when looked up; in a shared store as JSON.
 *
 * @module
 */
import type { GenerationRecord } from '../formats/fixture-schema.js';
import type { CompactGeneration, GatewayStore } from '../store/types.js';
import { andThen, type MaybePromise } from '../base/types.js';

export type { CompactGeneration } from '../store/types.js';

/** Default number of records a store keeps from speech calls before evicting the least recently used. */
export const DEFAULT_MAX_GENERATIONS = 10_000;

/** The records a gateway answers lookups with: the fixtures', and speech calls' kept in its store. */
export interface GenerationStore {
  /**
   * The record's `{"data":...}` JSON body, or `undefined` when unknown or, at `nowMs` (epoch ms; default: any
   * time), not ready yet.
   */
  get(id: string, nowMs?: number): MaybePromise<StoredGeneration | undefined>;
  /** Stores a speech call's record, readable from `readyAtMs` (epoch ms; default at once), in the gateway's store. */
  add(record: CompactGeneration, readyAtMs?: number): MaybePromise<void>;
}

/** A record found. */
export interface StoredGeneration {
  /** The record's id. */
  readonly id: string;
  /**
   * `{"data":<record>}` as JSON: UTF-8 bytes made once for a fixture (shared between calls: never write into them),
   * text made on each lookup for a speech call's record.
   */
  readonly body: string | Uint8Array;
  /** When the record becomes readable, epoch ms (`-Infinity` for fixtures). */
  readonly readyAt: number;
}

const utf8 = new TextEncoder();

/**
 * Creates the records of one gateway.
 *
 * @param fixtures records that are always found (from `fixtures/generations.json`), their JSON made once here.
 * @param store where speech calls' records are kept (bounded there by `maxGenerations`).
 */
export function createGenerationStore(fixtures: readonly GenerationRecord[], store: GatewayStore): GenerationStore {
  const known = new Map<string, StoredGeneration>(
    fixtures.map((record) => [record.id, { id: record.id, body: utf8.encode(JSON.stringify({ data: record })), readyAt: -Infinity }]),
  );
  return {
    get(id, nowMs = Infinity) {
      const fixture = known.get(id);
      if (fixture) return fixture;
      return andThen(store.getGeneration(id), (held) => (held && nowMs >= held.readyAt ? { id, body: held.body, readyAt: held.readyAt } : undefined));
    },
    add: (record, readyAtMs = -Infinity) => store.putGeneration(record, readyAtMs),
  };
}
