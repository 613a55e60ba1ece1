/**
 * The names of everything the Redis store keeps, all under one prefix (option `storePrefix`, `mockrouter:` by
 * default), so several simulators can share one server.
 *
 * Per-key state is named inside the scripts (`scripts.ts`), from the prefix and an epoch read from the control
 * hash, so a reset moves every replica to fresh keys at once: rate-limit windows `<prefix>window:<scope>@<epoch>`
 * (hash `start`, `count`), ledgers `<prefix>ledger:<usage|free>:<digest>@<epoch>` (hash `total`, `d<day>`),
 * scenario counters `<prefix>rule:<slot>@<counters' epoch>` (a count); each kind of an epoch indexed by last use in
 * `<prefix>windows@<epoch>`, `<prefix>ledgers@<epoch>` and `<prefix>rules@<counters' epoch>` (sorted sets scored
 * from the counter `<prefix>state:uses`), which bound it and list what a reset deletes.
 *
 * @module
 */

/** The key names of one store. */
export interface StoreKeys {
  /** The prefix itself: the scripts name per-key state from it. */
  readonly prefix: string;
  /**
   * Hash of the shared controls: `clock`, `scenario`, `version`, `epoch` (windows and ledgers; new at each reset),
   * `counters` (scenario counters; new at each reset and change of the default scenario). Versions and epochs are
   * random tokens, so a control hash rewritten whole never brings back an earlier epoch's keys.
   */
  readonly control: string;
  /** Set of the indexes of old epochs (`windows@<epoch>`, ...) whose state is being deleted. */
  readonly stale: string;
  /** The store's run: an id taken when the store is found empty, so replicas see a store that started over. */
  readonly run: string;
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
  /** The journal stream: entry `seq` has id `<seq>-0` and field `e` (its JSON). */
  readonly journal: string;
  /** Counter of journal sequence numbers (survives `clear` and reset). */
  readonly journalSeq: string;
  /** Hash of the fields entries get when their answer ends, by seq. */
  readonly journalDone: string;
  /** Sorted set of the said audios kept for transcription (their SHA-256), scored by their last use. */
  readonly said: string;
  /** Counter of said-audio uses (the scores of {@link said}). */
  readonly saidUses: string;
  /** Bytes of every said audio's text kept (the bound `SAID_BOUND_BYTES`). */
  readonly saidBytes: string;
  /** Prefix of the said audios' strings (their `SaidAudio` JSON): the SHA-256 follows (`said-scripts.ts`). */
  readonly saidPrefix: string;
  /** Pub/sub channel of events between replicas (ioredis' `keyPrefix` would not prefix it; this does). */
  readonly events: string;
}

/** The key names under `prefix`. */
export function storeKeys(prefix: string): StoreKeys {
  return {
    prefix,
    control: `${prefix}control`,
    stale: `${prefix}state:stale`,
    run: `${prefix}run`,
    serial: `${prefix}serial`,
    generations: `${prefix}generations`,
    generationUses: `${prefix}generations:uses`,
    generationPrefix: `${prefix}generation:`,
    generation: (id) => `${prefix}generation:${id}`,
    said: `${prefix}said`,
    saidUses: `${prefix}said:uses`,
    saidBytes: `${prefix}said:bytes`,
    saidPrefix: `${prefix}said-entry:`,
    journal: `${prefix}journal`,
    journalSeq: `${prefix}journal:seq`,
    journalDone: `${prefix}journal:done`,
    events: `${prefix}events`,
  };
}
