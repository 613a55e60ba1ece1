/**
 * The names of everything the Redis store keeps, all under one prefix (option `storePrefix`, `mockrouter:` by
 * default), so several simulators can share one server. Names marked "epoch" are bases: the scripts
 * (`scripts.ts`) append `@<epoch>` read from the control hash, so a reset moves every replica to fresh keys at
 * once and the old ones expire.
 *
 * @module
 */
import type { LedgerName } from '../../core/store/types.js';

/** The key names of one store. */
export interface StoreKeys {
  /** Hash of the shared controls: `clock`, `scenario`, `version`, `epoch` (reset), `counters` (reset, scenario). */
  readonly control: string;
  /** Counter of generation serials. */
  readonly serial: string;
  /** Sorted set of the generation ids kept, scored by their last use (the bound of `maxGenerations`). */
  readonly generations: string;
  /** Counter of generation uses (the scores of {@link generations}). */
  readonly generationUses: string;
  /** Prefix of the generation records' hashes (`body`, `readyAt`): the id follows. */
  readonly generationPrefix: string;
  /** Hash of generation `id`. */
  generation(id: string): string;
  /** Epoch base of the rate-limit window `scope` (hash `start`, `count`). */
  window(scope: string): string;
  /** Epoch base of ledger `name` of key `digest` (hash `total`, `d<day>`). */
  ledger(name: LedgerName, digest: string): string;
  /** Epoch base (counters' epoch) of scenario counter `slot`. */
  rule(slot: string): string;
  /** The journal stream: entry `seq` has id `<seq>-0` and field `e` (its JSON). */
  readonly journal: string;
  /** Counter of journal sequence numbers (survives `clear` and reset). */
  readonly journalSeq: string;
  /** Hash of the fields entries get when their answer ends, by seq. */
  readonly journalDone: string;
  /** Pub/sub channel of events between replicas (ioredis' `keyPrefix` would not prefix it; this does). */
  readonly events: string;
}

/** The key names under `prefix`. */
export function storeKeys(prefix: string): StoreKeys {
  return {
    control: `${prefix}control`,
    serial: `${prefix}serial`,
    generations: `${prefix}generations`,
    generationUses: `${prefix}generations:uses`,
    generationPrefix: `${prefix}generation:`,
    generation: (id) => `${prefix}generation:${id}`,
    window: (scope) => `${prefix}window:${scope}`,
    ledger: (name, digest) => `${prefix}ledger:${name}:${digest}`,
    rule: (slot) => `${prefix}rule:${slot}`,
    journal: `${prefix}journal`,
    journalSeq: `${prefix}journal:seq`,
    journalDone: `${prefix}journal:done`,
    events: `${prefix}events`,
  };
}
