/**
 * The default {@link GatewayStore}: the state of one gateway in this process's memory, every answer at once (no
 * promise on the request path). Each store that grows with traffic is a bounded map (`bounded-map.ts`): windows,
 * ledgers and counters by {@link TRAFFIC_BOUND}, records by `maxGenerations`, the journal by `journalSize` and
 * `journalBytes`, said audio (for transcription) by `SAID_BOUND` entries and `SAID_BOUND_BYTES`.
 *
 * @module
 */
import { TRAFFIC_BOUND, boundedMap } from '../base/bounded-map.js';
import { DailyLedger } from '../accounts/daily-ledger.js';
import type { RateLimit } from '../accounts/rate-limit.js';
import type { Journal } from '../journal/journal.js';
import { LRUCache } from 'lru-cache';
import { SAID_BOUND, SAID_BOUND_BYTES, type CompactGeneration, type GatewayStore, type LedgerName, type LedgerState, type StoreJournal, type StoredRecord, type WindowVerdict } from './types.js';

/** A fixed window: its first request's time (epoch ms) and the requests counted in it. */
interface Window {
  start: number;
  count: number;
}

/** A speech call's record as held: its facts and when it becomes readable. */
interface Held {
  readonly record: CompactGeneration;
  readonly readyAt: number;
}

/** What a key spent and its `:free` requests. */
interface Ledgers {
  readonly usage: DailyLedger;
  readonly free: DailyLedger;
}

const EMPTY_LEDGER: LedgerState = { total: 0, days: new Map() };

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** The journal (the gateway's own `gateway.journal`). */
  readonly journal: Journal;
  /** Bound of speech calls' records kept (0 keeps none); the least recently used goes first. */
  readonly maxGenerations: number;
  /** The replica's name in journal entries. */
  readonly replica: string;
  /** Bound of each per-key store (windows, ledgers by key, counters); default {@link TRAFFIC_BOUND}. */
  readonly stateBound?: number;
}

/** The run of a memory store: one, the process's. */
const MEMORY_RUN = 'memory';

/** {@link StoreJournal} over the gateway's own {@link Journal}: the entry recorded is the one that changes as it ends. */
function journalStoreOf(journal: Journal): StoreJournal {
  return {
    record: (entry, bytes) => ({ entry: journal.record(entry, bytes), run: MEMORY_RUN }),
    finish: () => undefined,
    list: (filter) => journal.list(filter),
    after: (seq, limit, filter) => journal.after(seq, limit, filter),
    get: (seq) => journal.get(seq),
    lastSeq: () => journal.lastSeq,
    clear: () => journal.clear(),
  };
}

/**
 * Creates the in-memory store of one gateway.
 *
 * @example const store = createMemoryStore({ journal: new Journal(), maxGenerations: 10_000, replica: 'host:1' });
 */
export function createMemoryStore(options: MemoryStoreOptions): GatewayStore {
  const bound = options.stateBound ?? TRAFFIC_BOUND;
  const windows = boundedMap<string, Window>(bound);
  const ledgers = boundedMap<string, Ledgers>(bound);
  const counters = boundedMap<string, number>(bound);
  const generations = boundedMap<string, Held>(Math.max(1, options.maxGenerations));
  // Made on first use: a gateway that never speaks pays nothing for it.
  let said: LRUCache<string, string> | undefined;
  const saidMap = () => (said ??= new LRUCache<string, string>({ max: SAID_BOUND, maxSize: SAID_BOUND_BYTES, sizeCalculation: (text) => Math.max(1, text.length * 2) }));
  let serial = 0;

  const ledgersOf = (digest: string): Ledgers => {
    let found = ledgers.get(digest);
    if (!found) ledgers.set(digest, (found = { usage: new DailyLedger(), free: new DailyLedger() }));
    return found;
  };

  return {
    description: 'memory',
    shared: false,
    replica: options.replica,
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
    control: () => undefined,
    setClock: () => undefined,
    setScenario: () => void counters.clear(),
    reset() {
      windows.clear();
      ledgers.clear();
      counters.clear();
      options.journal.clear();
    },
    nextSerial: () => serial++,
    putGeneration(record, readyAt) {
      if (options.maxGenerations > 0) generations.set(record.id, { record, readyAt });
    },
    getGeneration(id): StoredRecord | undefined {
      const held = generations.get(id);
      return held && { body: JSON.stringify({ data: held.record.record() }), readyAt: held.readyAt };
    },
    countWindow(scope: string, limit: RateLimit, nowMs: number): WindowVerdict {
      const intervalMs = limit.interval_s * 1000;
      let window = windows.get(scope);
      if (!window || nowMs >= window.start + intervalMs || nowMs < window.start) {
        window = { start: nowMs, count: 0 };
        windows.set(scope, window);
      }
      if (window.count < limit.requests) {
        window.count++;
        return ALLOWED;
      }
      return { allowed: false, resetMs: window.start + intervalMs };
    },
    charge(digest, limitUsd, costUsd, nowMs) {
      const usage = ledgersOf(digest).usage;
      if (limitUsd !== null && limitUsd - usage.total + 1e-12 < costUsd) return false;
      usage.add(costUsd, nowMs);
      return true;
    },
    addToLedger(name: LedgerName, digest, amount, nowMs) {
      ledgersOf(digest)[name].add(amount, nowMs);
    },
    ledger(name: LedgerName, digest): LedgerState {
      return ledgers.get(digest)?.[name].state() ?? EMPTY_LEDGER;
    },
    rememberSaid(sha256, text) {
      if (text.length * 2 <= SAID_BOUND_BYTES) saidMap().set(sha256, text);
    },
    recallSaid: (sha256) => said?.get(sha256),
    countRule(slot) {
      const seen = counters.get(slot) ?? 0;
      counters.set(slot, seen + 1);
      return seen;
    },
    journal: journalStoreOf(options.journal),
    publish: () => undefined,
    onRemoteEvent: () => () => undefined,
  };
}

const ALLOWED: WindowVerdict = { allowed: true };

