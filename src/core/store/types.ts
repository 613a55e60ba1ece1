/**
 * The store seam: every piece of a gateway's state that must be the same on every replica goes through one
 * {@link GatewayStore}. Two implementations: in memory (`memory-store.ts`, the default, one process) and
 * Redis-protocol (`src/node-platform/redis-store/`, Valkey 7/8 and Redis 7: replicas sharing one store act as one gateway;
 * `docs/scale-out.md`).
 *
 * What is state here: generation serials and records, what keys spent (usage and `:free` requests by UTC day),
 * rate-limit windows, scenario counters, the journal, the shared controls (clock, default scenario) and the
 * events other replicas send. What is not: the catalog, the keys file and the loaded scenarios (configuration,
 * the same on every replica by construction) and the audio cache (audio is deterministic: any replica renders
 * the same bytes).
 *
 * Every method answers at once when it has nothing to wait for (the memory store always), else a promise: the
 * request path chains them with `andThen` (`src/core/base/types.ts`), so the default costs no promise. A store that
 * cannot be reached rejects with the 503 of {@link storeUnavailable} (`unavailable.ts`); one that holds what the
 * simulator cannot read (a malformed control field, a key of another type), with the 500 of {@link storeDataInvalid}
 * (`invalid-data.ts`).
 *
 * @module
 */
import type { AccountsStore, LedgerName, LedgerState, WindowVerdict } from '../accounts/accounts-store.js';
import type { ClockSetting } from '../base/clock.js';
import type { GenerationRecord } from '../formats/fixture-schema.js';
import type { GatewayEvent } from '../journal/gateway-events.js';
import type { JournalEntry, JournalFilter } from '../journal/journal.js';
import type { MaybePromise } from '../base/types.js';

export type { ClockSetting } from '../base/clock.js';
export type { AccountsStore, LedgerName, LedgerState, WindowVerdict };

/** Most said audios a store keeps for transcription (`GatewayStore.rememberSaid`). */
export const SAID_BOUND = 20_000;

/** Most text of said audios a store keeps for transcription, bytes (16 MiB; counted as UTF-16 code units × 2 in memory). */
export const SAID_BOUND_BYTES = 16 * 1024 * 1024;

/** A speech call's record kept compact, and expanded on lookup (`SpeechGeneration` of `generations/speech-generation.ts`). */
export interface CompactGeneration {
  /** The record's id (`gen-tts-...`). */
  readonly id: string;
  /** The whole record. */
  record(): GenerationRecord;
}

/**
 * The default scenario as shared between replicas: each replica's initial one (option `scenario`: replicas are
 * started alike), none, a loaded scenario by name, or a definition (as given to `useScenario`).
 */
export type SharedScenario =
  | { readonly kind: 'initial' }
  | { readonly kind: 'none' }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'definition'; readonly definition: unknown };

/** What every request of a shared store reads first: the clock and the default scenario, and a version of both. */
export interface SharedControl {
  /** The clock, or `null` while no replica moved it (each replica keeps its option `clock`). */
  readonly clock: ClockSetting | null;
  readonly scenario: SharedScenario;
  /**
   * A new random id with every write of the controls (`'0'` while none was written). A replica takes the controls
   * when this, the clock or the scenario differs from what it took last (`gateway/replica-link.ts`): the version
   * alone does not decide, since a store that restarted empty reads `'0'` again, with other controls.
   */
  readonly version: string;
}

/** A generation record as a store gives it back: `{"data":<record>}` as JSON text, and when it becomes readable. */
export interface StoredRecord {
  readonly body: string;
  /** Epoch ms (simulator clock) from which lookups find it. */
  readonly readyAt: number;
}

/** An event of another replica: the event, and the replica that sent it. */
export interface RemoteEvent {
  readonly replica: string;
  readonly event: Pick<GatewayEvent, 'type' | 'data'>;
}

/**
 * The journal of every replica as it is read and emptied: `gateway.sharedJournal`, behind the admin API's
 * `/__mock/requests`. Sequence numbers are given out by the store (one sequence for every replica); entries are
 * kept up to the bound (`journalSize`), oldest dropped first. Reads give copies with a shared store.
 */
export interface SharedJournal {
  /** Entries matching `filter`, oldest first (`Journal.list`). */
  list(filter?: JournalFilter): MaybePromise<JournalEntry[]>;
  /** Entries after `seq` matching `filter`, oldest first, at most `limit` (`Journal.after`). */
  after(seq: number, limit?: number, filter?: JournalFilter): MaybePromise<JournalEntry[]>;
  /** The entry `seq`, or `undefined` (never made, dropped by the bound, or cleared). */
  get(seq: number): MaybePromise<JournalEntry | undefined>;
  /** The highest sequence number given out (0 before the first request). */
  lastSeq(): MaybePromise<number>;
  /** Drops every entry; sequence numbers keep counting. */
  clear(): MaybePromise<void>;
}

/** An entry a store recorded: with its `seq`, and the run of the store's state it was recorded in. */
export interface RecordedEntry {
  readonly entry: JournalEntry;
  /**
   * The run of the store's state the entry belongs to: an id the store takes when it finds itself empty (its first
   * use, or a restart that kept nothing), the same for every replica until then. Sequence numbers start over with
   * a new run, so a copy of entries kept outside the store is of one run only (`gateway.journal`).
   */
  readonly run: string;
}

/**
 * The journal a store keeps: {@link SharedJournal}, and the writes of the gateway (`gateway/journal-sink.ts`), which
 * are not for users: recording an entry and storing how its answer ended.
 */
export interface StoreJournal extends SharedJournal {
  /** Records an entry with the next sequence number: the entry back (the same object, `seq` set) and the store's run. */
  record(entry: Omit<JournalEntry, 'seq'>, bytes: number): MaybePromise<RecordedEntry>;
  /** Stores the fields an entry gets when its answer ends (`status`, `duration_ms`, `response_bytes`, `body_end`). */
  finish(entry: JournalEntry): MaybePromise<void>;
}

/** The state of one simulated gateway, wherever it is kept. */
export interface GatewayStore extends AccountsStore {
  /** What the store is, for messages: `memory`, or its URL without credentials (`redis://127.0.0.1:6379/0`). */
  readonly description: string;
  /** Whether other processes share it: then every request reads {@link control} first. */
  readonly shared: boolean;
  /** The replica this process is (journal entries' `replica`, events' sender). */
  readonly replica: string;

  /** Resolves once the store answers; rejects with a message naming it when it cannot within its time bound. */
  ready(): Promise<void>;
  /** Closes connections; a closed store answers nothing more. */
  close(): Promise<void>;

  /** The shared controls, or `undefined` for a store no one else shares (the gateway's own clock and scenario rule). */
  control(): MaybePromise<SharedControl | undefined>;
  /** Shares a move of the clock. */
  setClock(setting: ClockSetting): MaybePromise<void>;
  /** Shares a change of the default scenario and restarts every scenario counter. */
  setScenario(scenario: SharedScenario): MaybePromise<void>;
  /**
   * Clears scenario counters, rate-limit windows, what keys spent and the journal, and returns the default scenario
   * to each replica's initial one; generation records, serials and the clock stay. A shared store deletes the
   * per-key state it held (not left to expire), and rewrites controls it could not read (keeping a valid clock).
   */
  reset(): MaybePromise<void>;

  /** The next generation serial: 0, 1, 2, ... over every replica (`ids.ts` makes the id from it). */
  nextSerial(): MaybePromise<number>;
  /** Keeps a speech call's record, readable from `readyAtMs` (epoch ms), bounded (`maxGenerations`). */
  putGeneration(record: CompactGeneration, readyAtMs: number): MaybePromise<void>;
  /** A speech call's record, whatever its readiness, or `undefined`. */
  getGeneration(id: string): MaybePromise<StoredRecord | undefined>;

  /**
   * Remembers audio this simulator said, for transcription: `said` (JSON text of `SaidAudio`,
   * `src/core/transcription/said-audio.ts`) under the SHA-256 of its bytes (64 hex digits). Bounded: at most
   * {@link SAID_BOUND} entries and {@link SAID_BOUND_BYTES} of text, the least recently remembered or recalled dropped
   * first. Not cleared by `reset()`: audio once said stays recognizable.
   */
  rememberSaid(sha256: string, said: string): MaybePromise<void>;
  /** The text {@link rememberSaid} kept under `sha256`, or `undefined` (never said, or dropped by the bound). */
  recallSaid(sha256: string): MaybePromise<string | undefined>;
  /** Counts one use of scenario counter `slot` (a fixed-size digest) and gives the count before it. */
  countRule(slot: string): MaybePromise<number>;

  /** The journal: the gateway's own `Journal` in memory; in a shared store, every replica's. */
  readonly journal: StoreJournal;
  /** Sends `event` to the other replicas (the memory store: nothing). Never throws. */
  publish(event: Pick<GatewayEvent, 'type' | 'data'>): void;
  /** Calls `listener` with each event another replica published. @returns the function that stops it. */
  onRemoteEvent(listener: (event: RemoteEvent) => void): () => void;
}
