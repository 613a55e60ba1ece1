/**
 * The Redis-protocol {@link GatewayStore} (issue 21; `docs/scale-out.md`): replicas given the same `store` URL and
 * `storePrefix` share one gateway's state on a Valkey 7/8 or Redis 7 server (standalone, or fronted by Sentinel;
 * not Redis Cluster: see `scripts.ts`). Semantics are the memory store's (`src/core/store/memory-store.ts`),
 * each state change one Lua script (`scripts.ts`), keys under the prefix (`keys.ts`), the journal a capped stream
 * (`journal.ts`).
 *
 * The client is `ioredis` (bench/README.md, "Store client (issue 21)"), loaded only when a store is opened, so a
 * gateway without one never loads it. While the server is away, commands fail at once (no offline queue, no
 * retries of commands in flight, `commandTimeout` for a server that stalls) and every method rejects with the 503
 * of `storeUnavailable`; the client reconnects by itself and answers resume.
 *
 * @module
 */
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type { StoreOpenOptions } from '../../core/platform.js';
import type { RateLimit } from '../../core/accounts/rate-limit.js';
import { roundUsd } from '../../core/accounts/usd.js';
import type { ClockSetting, GatewayStore, LedgerName, LedgerState, SharedControl, SharedScenario, StoredRecord, WindowVerdict } from '../../core/store/types.js';
import { storeUnavailable } from '../../core/store/unavailable.js';
import { eventChannel } from './events.js';
import { quit } from './quit.js';
import { redisJournal } from './journal.js';
import { storeKeys } from './keys.js';
import { SCRIPTS, type ScriptCommands } from './scripts.js';
import { parseStoreUrl } from './url.js';

/** How long the first connection may take before {@link GatewayStore.ready} rejects, ms. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long one command may take before it fails (a store that stalls without closing), ms. */
export const COMMAND_TIMEOUT_MS = 2000;
/** Longest wait between reconnection attempts, ms. */
const RETRY_CAP_MS = 1000;

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

/** The first connection to the store failed: the message names the store (no password) and why. */
export class StoreConnectError extends Error {
  override name = 'StoreConnectError';
  /** The store, as `GatewayStore.description` gives it. */
  readonly store: string;

  constructor(store: string, reason: string) {
    super(`cannot reach the store ${store}: ${reason}`);
    this.store = store;
  }
}

const ALLOWED: WindowVerdict = { allowed: true };

/**
 * Opens the shared store at `options.url`, connecting in the background (at once, synchronously: nothing is
 * awaited here). Until the first connection attempt has ended, methods wait for it; after it they fail at once
 * while the store is away. Every failure of the store is a rejection with the 503 `StoreUnavailableError`
 * (`core/store/unavailable.ts`), never a throw. Losing and regaining the connection is reported once each through
 * `options.onStatus` (`store <url> lost: <reason>`, `store <url> is back`).
 *
 * @throws {OptionsError} (option `store`) for a URL that is not `redis://` or `rediss://`.
 * @example const store = createRedisStore({ url: 'redis://127.0.0.1:6379/0', prefix: 'mockrouter:', replica: 'a', journalSize: 1000, maxGenerations: 10_000 });
 */
export function createRedisStore(options: StoreOpenOptions): GatewayStore {
  const { description, url } = parseStoreUrl(options.url);
  const keys = storeKeys(options.prefix);
  const journalSize = Math.max(1, Math.floor(options.journalSize));
  const onStatus = options.onStatus;
  // Loaded here, synchronously, so that importing mockrouter without a store never loads the client.
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis };
  const settings: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(50 * attempt, RETRY_CAP_MS),
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // Off: batching concurrent commands into one write holds each until the next tick, which costs latency when few
    // requests are in flight (a test suite's usual load) and gave no consistent gain with many (measured with
    // parallel countWindow calls; the figures are in the commit message that chose this).
    enableAutoPipelining: false,
  };
  const client = new RedisClient(url, settings) as Redis & ScriptCommands;
  for (const [name, script] of Object.entries(SCRIPTS)) client.defineCommand(name, script);

  let closed = false;
  let lastError: Error | undefined;
  /** Whether the store was connected once, and whether it is lost since (each transition reported once). */
  let connectedOnce = false;
  let lost = false;
  const reportLost = (reason: string): void => {
    if (!connectedOnce || lost || closed) return;
    lost = true;
    onStatus?.(`store ${description} lost: ${reason}; requests that need state answer 503 until it is back`, 'lost');
  };
  client.on('error', (error: Error) => {
    lastError = error;
    reportLost(error.message);
  });
  client.on('close', () => reportLost(lastError?.message ?? 'connection closed'));
  client.on('ready', () => {
    lastError = undefined;
    if (lost) onStatus?.(`store ${description} is back`, 'back');
    lost = false;
    connectedOnce = true;
  });

  /** The first connection attempt: resolves either way once it ended; `firstFailure` says why it failed. */
  let firstDone = false;
  let firstFailure: StoreConnectError | undefined;
  const firstAttempt = client.connect().then(
    () => {
      firstDone = true;
    },
    (error: unknown) => {
      firstDone = true;
      const reason = lastError?.message ?? (error instanceof Error ? error.message : String(error));
      firstFailure = new StoreConnectError(description, reason);
    },
  );

  /** Runs `command` (after the first attempt), turning every failure into the store's 503. */
  const run = <T>(command: () => Promise<T>): Promise<T> => {
    const go = (): Promise<T> => {
      let pending: Promise<T>;
      try {
        pending = command();
      } catch (error) {
        pending = Promise.reject(error);
      }
      return pending.catch((error: unknown) => {
        throw storeUnavailable(description, plainReason(error));
      });
    };
    return firstDone ? go() : firstAttempt.then(go);
  };

  const channel = eventChannel(client, keys.events, options.replica);

  const ledgerState = (flat: string[]): LedgerState => {
    let total = 0;
    const days = new Map<number, number>();
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const field = flat[i]!;
      const amount = roundUsd(Number(flat[i + 1]));
      if (field === 'total') total = amount;
      else if (field.startsWith('d')) days.set(Number(field.slice(1)), amount);
    }
    return { total, days: new Map([...days].sort((a, b) => a[0] - b[0])) };
  };

  return {
    description,
    shared: true,
    replica: options.replica,

    async ready() {
      if (client.status === 'ready') return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreConnectError(description, `no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
        timer.unref();
      });
      try {
        await Promise.race([firstAttempt, timeout]);
      } finally {
        clearTimeout(timer);
      }
      if ((client.status as string) === 'ready') return;
      throw firstFailure ?? new StoreConnectError(description, lastError?.message ?? `not connected (${client.status})`);
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([quit(client), channel.close()]);
    },

    control: () =>
      run(async (): Promise<SharedControl> => {
        const [clock, scenario, version] = await client.hmget(keys.control, 'clock', 'scenario', 'version');
        return {
          clock: clock ? (JSON.parse(clock) as ClockSetting) : null,
          scenario: scenario ? (JSON.parse(scenario) as SharedScenario) : { kind: 'initial' },
          version: version ?? '0',
        };
      }),
    setClock: (setting) =>
      run(async () => {
        await client.mrSetControl(keys.control, 'clock', JSON.stringify({ offsetMs: setting.offsetMs, frozenAtMs: setting.frozenAtMs }));
      }),
    setScenario: (scenario) =>
      run(async () => {
        await client.mrSetScenario(keys.control, JSON.stringify(scenario));
      }),
    reset: () =>
      run(async () => {
        await client.mrReset(keys.control, keys.journal, keys.journalDone);
      }),

    nextSerial: () => run(async () => (await client.incr(keys.serial)) - 1),
    putGeneration(record, readyAtMs) {
      if (options.maxGenerations <= 0) return Promise.resolve();
      return run(async () => {
        const body = JSON.stringify({ data: record.record() });
        await client.mrPutGeneration(keys.generations, keys.generationUses, keys.generation(record.id), record.id, body, String(readyAtMs), options.maxGenerations, keys.generationPrefix);
      });
    },
    getGeneration: (id) =>
      run(async (): Promise<StoredRecord | undefined> => {
        const [body, readyAt] = (await client.mrGetGeneration(keys.generations, keys.generationUses, keys.generation(id), id)) as [string?, string?];
        return body === undefined ? undefined : { body, readyAt: Number(readyAt) };
      }),

    countWindow: (scope: string, limit: RateLimit, nowMs: number) =>
      run(async (): Promise<WindowVerdict> => {
        const intervalMs = limit.interval_s * 1000;
        const ttl = Math.ceil(Math.max(2 * intervalMs, WINDOW_TTL_MIN_MS));
        const reply = (await client.mrCountWindow(keys.control, keys.window(scope), String(nowMs), String(intervalMs), limit.requests, ttl)) as [number, string?];
        return Number(reply[0]) === 1 ? ALLOWED : { allowed: false, resetMs: Number(reply[1]) + intervalMs };
      }),
    charge: (digest, limitUsd, costUsd, nowMs) =>
      run(async () => {
        const day = Math.floor(nowMs / DAY_MS);
        const limit = limitUsd === null ? '' : String(limitUsd);
        return Number(await client.mrCharge(keys.control, keys.ledger('usage', digest), String(costUsd), day, limit, DAYS_KEPT, LEDGER_TTL_MS)) === 1;
      }),
    addToLedger: (name: LedgerName, digest, amount, nowMs) =>
      run(async () => {
        await client.mrAddToLedger(keys.control, keys.ledger(name, digest), String(amount), Math.floor(nowMs / DAY_MS), DAYS_KEPT, LEDGER_TTL_MS);
      }),
    ledger: (name: LedgerName, digest) => run(async () => ledgerState((await client.mrReadLedger(keys.control, keys.ledger(name, digest))) as string[])),
    countRule: (slot) => run(async () => Number(await client.mrCountRule(keys.control, keys.rule(slot), COUNTER_TTL_MS))),

    journal: redisJournal(client, keys, journalSize, run),

    publish: (event) => {
      if (!closed) channel.publish(event);
    },
    onRemoteEvent: (listener) => channel.listen(listener),
  };
}

/**
 * What went wrong, in a user's words: the client's messages for a connection that is down (`Stream isn't writeable
 * and enableOfflineQueue options is false`, `Connection is closed.`) read `not connected`; others as they are.
 */
function plainReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /Stream isn't writeable|Connection is closed/i.test(message) ? 'not connected' : message;
}
