/**
 * The Redis-protocol {@link GatewayStore} (`docs/scale-out.md`): replicas given the same `store` URL and
 * `storePrefix` share one gateway's state on a Valkey 7/8 or Redis 7 server (standalone, or fronted by Sentinel;
 * not Redis Cluster: see `scripts.ts`). Semantics are the memory store's (`src/core/store/memory-store.ts`),
 * each state change one Lua script (`scripts.ts`), keys under the prefix (`key-names.ts`), the journal a capped stream
 * (`journal.ts`).
 *
 * The client is `ioredis` (bench/README.md, "Store client"), loaded only when a store is opened, so a
 * gateway without one never loads it (`connection.ts`). While the server is away, commands fail at once and every
 * method rejects with the 503 of `storeUnavailable` (`command-failures.ts`); the client reconnects by itself and
 * answers resume. Per-key state is bounded as in memory
 * (`stateBound`, least recently used first) and deleted by a reset, in chunks (`scripts.ts`).
 *
 * @module
 */
import type { StoreOpenOptions } from '../../core/gateway/platform.js';
import type { RateLimit } from '../../core/accounts/rate-limit.js';
import { roundUsd } from '../../core/base/usd.js';
import { TRAFFIC_BOUND } from '../../core/base/bounded-map.js';
import { readSharedControl } from '../../core/store/shared-control.js';
import { SAID_BOUND, SAID_BOUND_BYTES, type GatewayStore, type LedgerName, type LedgerState, type SharedControl, type StoredRecord, type WindowVerdict } from '../../core/store/types.js';
import { commandRunner } from './command-failures.js';
import { connectStore } from './connection.js';
import { eventChannel } from './events.js';
import { quit } from './quit.js';
import { redisJournal } from './journal.js';
import { controlSite, journalSite, keySite, stateSite } from './data-site.js';
import { storeKeys } from './key-names.js';
import { drainStale, invalidClock, markUnnamedEpochs } from './reset-steps.js';
import { parseStoreUrl } from './url.js';
import { randomHex } from '../node-crypto.js';

/** Milliseconds in a day: UTC day numbers of the ledgers (`accounts/daily-ledger.ts`). */
const DAY_MS = 86_400_000;
/** Days a ledger keeps before its latest addition (`DAYS_KEPT` of `accounts/daily-ledger.ts`). */
const DAYS_KEPT = 40;
/** Expiry of a ledger, refreshed on each addition: the days it keeps (what `/key` reports by month and week), ms. */
const LEDGER_TTL_MS = DAYS_KEPT * DAY_MS;
/** Expiry of a scenario counter, refreshed on each count, ms. */
const COUNTER_TTL_MS = DAY_MS;
/** Shortest expiry of a rate-limit window (else twice its interval), refreshed on each count, ms. */
const WINDOW_TTL_MIN_MS = DAY_MS;

/** Options of {@link createRedisStore}: the platform's, and the bound of per-key state (for tests). */
export interface RedisStoreOptions extends StoreOpenOptions {
  /**
   * Bound of each kind of per-key state (rate-limit windows, ledgers by key, scenario counters), the least recently
   * used going first, as in memory; default {@link TRAFFIC_BOUND}.
   */
  readonly stateBound?: number;
  /** Bounds of the said audio kept for transcription: entries and bytes of text; default `SAID_BOUND`, `SAID_BOUND_BYTES`. */
  readonly saidBound?: { readonly entries: number; readonly bytes: number };
}

/** A new random id: versions and epochs of the controls, the store's run. */
const newId = (): string => randomHex(8);

const ALLOWED: WindowVerdict = { allowed: true };

/**
 * Opens the shared store at `options.url`, connecting in the background (at once, synchronously: nothing is
 * awaited here). Until the first connection attempt has ended, methods wait for it; after it they fail at once
 * while the store is away. Every failure of the store is a rejection, never a throw: the 503
 * `StoreUnavailableError` (`core/store/unavailable.ts`) while it is away, the 500 `StoreDataError`
 * (`core/store/invalid-data.ts`) naming the key when it holds what the simulator cannot read. Losing and regaining
 * the connection is reported once each through `options.onStatus` (`store <url> lost: <reason>`, `store <url> is
 * back`).
 *
 * @throws {OptionsError} (option `store`) for a URL that is not `redis://` or `rediss://`.
 * @example const store = createRedisStore({ url: 'redis://127.0.0.1:6379/0', prefix: 'mockrouter:', replica: 'a', journalSize: 1000, maxGenerations: 10_000 });
 */
export function createRedisStore(options: RedisStoreOptions): GatewayStore {
  const { description, url } = parseStoreUrl(options.url);
  const keys = storeKeys(options.prefix);
  const journalSize = Math.max(1, Math.floor(options.journalSize));
  const stateBound = Math.max(1, Math.floor(options.stateBound ?? TRAFFIC_BOUND));
  const saidBound = options.saidBound ?? { entries: SAID_BOUND, bytes: SAID_BOUND_BYTES };
  const connection = connectStore(url, description, options.onStatus);
  const { client } = connection;
  const control = controlSite(keys);
  const run = commandRunner(description, control, connection);
  const channel = eventChannel(client, keys.events, options.replica);

  return {
    description,
    shared: true,
    replica: options.replica,

    ready: () => connection.ready(),

    async close() {
      if (connection.closed) return;
      connection.closed = true;
      await Promise.all([quit(client), channel.close()]);
    },

    control: () =>
      run(async (): Promise<SharedControl> => {
        const [clock, scenario, version] = await client.hmget(keys.control, 'clock', 'scenario', 'version');
        return readSharedControl({ clock: clock ?? null, scenario: scenario ?? null, version: version ?? null }, { description, key: keys.control });
      }, control),
    setClock: (setting) =>
      run(async () => {
        await client.mrSetControl(keys.control, 'clock', JSON.stringify({ offsetMs: setting.offsetMs, frozenAtMs: setting.frozenAtMs }), newId());
      }, control),
    setScenario: (scenario) =>
      run(async () => {
        await client.mrSetScenario(keys.control, keys.stale, JSON.stringify(scenario), newId(), newId());
        await drainStale(client, keys);
      }, control),
    reset: () =>
      run(async () => {
        const epoch = newId();
        const counters = newId();
        const mended = Number(await client.mrReset(keys.control, keys.journal, keys.journalDone, keys.stale, newId(), epoch, counters, await invalidClock(client, keys)));
        if (mended === 2) await markUnnamedEpochs(client, keys, epoch, counters);
        await drainStale(client, keys);
      }, control),
    nextSerial: () => run(async () => (await client.incr(keys.serial)) - 1, keySite(keys.serial)),
    putGeneration(record, readyAtMs) {
      if (options.maxGenerations <= 0) return Promise.resolve();
      return run(async () => {
        const body = JSON.stringify({ data: record.record() });
        await client.mrPutGeneration(keys.generations, keys.generationUses, keys.generation(record.id), record.id, body, String(readyAtMs), options.maxGenerations, keys.generationPrefix);
      }, keySite(keys.generation(record.id)));
    },
    getGeneration: (id) =>
      run(async (): Promise<StoredRecord | undefined> => {
        const [body, readyAt] = (await client.mrGetGeneration(keys.generations, keys.generationUses, keys.generation(id), id)) as [string?, string?];
        return body === undefined ? undefined : { body, readyAt: Number(readyAt) };
      }, keySite(keys.generation(id))),

    countWindow: (scope: string, limit: RateLimit, nowMs: number) =>
      run(async (): Promise<WindowVerdict> => {
        const intervalMs = limit.interval_s * 1000;
        const ttl = Math.ceil(Math.max(2 * intervalMs, WINDOW_TTL_MIN_MS));
        const reply = (await client.mrCountWindow(keys.control, keys.prefix, stateBound, scope, String(nowMs), String(intervalMs), limit.requests, ttl)) as [number, string?];
        return Number(reply[0]) === 1 ? ALLOWED : { allowed: false, resetMs: Number(reply[1]) + intervalMs };
      }, stateSite(keys, 'window', 'windows', scope)),
    charge: (digest, limitUsd, costUsd, nowMs) =>
      run(async () => {
        const day = Math.floor(nowMs / DAY_MS);
        const limit = limitUsd === null ? '' : String(limitUsd);
        return Number(await client.mrCharge(keys.control, keys.prefix, stateBound, digest, String(costUsd), day, limit, DAYS_KEPT, LEDGER_TTL_MS)) === 1;
      }, stateSite(keys, 'ledger:usage', 'ledgers', digest)),
    addToLedger: (name: LedgerName, digest, amount, nowMs) =>
      run(async () => {
        await client.mrAddToLedger(keys.control, keys.prefix, stateBound, digest, name, String(amount), Math.floor(nowMs / DAY_MS), DAYS_KEPT, LEDGER_TTL_MS);
      }, stateSite(keys, `ledger:${name}`, 'ledgers', digest)),
    ledger: (name: LedgerName, digest) =>
      run(
        async () => ledgerState((await client.mrReadLedger(keys.control, keys.prefix, stateBound, digest, name, LEDGER_TTL_MS)) as string[]),
        stateSite(keys, `ledger:${name}`, 'ledgers', digest),
      ),
    rememberSaid: (sha256, text) =>
      run(async () => {
        await client.mrRememberSaid(keys.said, keys.saidUses, keys.saidBytes, keys.saidPrefix + sha256, sha256, text, saidBound.entries, saidBound.bytes, keys.saidPrefix);
      }, keySite(keys.saidPrefix + sha256)),
    recallSaid: (sha256) =>
      run(async () => ((await client.mrRecallSaid(keys.said, keys.saidUses, keys.saidPrefix + sha256, sha256)) as string | null) ?? undefined, keySite(keys.saidPrefix + sha256)),
    countRule: (slot) =>
      run(async () => Number(await client.mrCountRule(keys.control, keys.prefix, stateBound, slot, COUNTER_TTL_MS)), stateSite(keys, 'rule', 'rules', slot)),

    journal: redisJournal(client, keys, journalSize, run, { site: journalSite(keys), newRun: newId }),

    publish: (event) => {
      if (!connection.closed) channel.publish(event);
    },
    onRemoteEvent: (listener) => channel.listen(listener),
  };
}

/** A ledger hash read as a flat list (`total`, `d<day>` and their amounts) as the store seam's {@link LedgerState}. */
function ledgerState(flat: string[]): LedgerState {
  let total = 0;
  const days = new Map<number, number>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const field = flat[i]!;
    const amount = roundUsd(Number(flat[i + 1]));
    if (field === 'total') total = amount;
    else if (field.startsWith('d')) days.set(Number(field.slice(1)), amount);
  }
  return { total, days: new Map([...days].sort((a, b) => a[0] - b[0])) };
}
