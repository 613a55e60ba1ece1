/**
 * The Redis-protocol {@link GatewayStore} (`docs/scale-out.md`): replicas given the same `store` URL and
 * `storePrefix` share one gateway's state on a Valkey 7/8 or Redis 7 server (standalone, or fronted by Sentinel;
 * not Redis Cluster: see `scripts.ts`). Semantics are the memory store's (`src/core/store/memory-store.ts`),
 * each state change one Lua script (`scripts.ts`), keys under the prefix (`keys.ts`), the journal a capped stream
 * (`journal.ts`).
 *
 * The client is `ioredis` (bench/README.md, "Store client"), loaded only when a store is opened, so a
 * gateway without one never loads it. While the server is away, commands fail at once (no offline queue, no
 * retries of commands in flight, `commandTimeout` for a server that stalls) and every method rejects with the 503
 * of `storeUnavailable`; the client reconnects by itself and answers resume. Per-key state is bounded as in memory
 * (`stateBound`, least recently used first) and deleted by a reset, in chunks (`scripts.ts`).
 *
 * @module
 */
import { StoreConnectError } from '../../core/base/errors.js';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type { StoreOpenOptions } from '../../core/gateway/platform.js';
import type { RateLimit } from '../../core/accounts/rate-limit.js';
import { roundUsd } from '../../core/base/usd.js';
import { TRAFFIC_BOUND } from '../../core/base/bounded-map.js';
import { GatewayError } from '../../core/base/error-envelope.js';
import { storeDataInvalid } from '../../core/store/invalid-data.js';
import { readSharedControl, storedClockProblem } from '../../core/store/shared-control.js';
import { SAID_BOUND, SAID_BOUND_BYTES, type GatewayStore, type LedgerName, type LedgerState, type SharedControl, type StoredRecord, type WindowVerdict } from '../../core/store/types.js';
import { storeUnavailable } from '../../core/store/unavailable.js';
import { eventChannel } from './events.js';
import { quit } from './quit.js';
import { redisJournal } from './journal.js';
import { controlSite, indexSite, journalSite, keySite, stateSite, type DataSite } from './data-site.js';
import { storeKeys } from './key-names.js';
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
/** Members of an old epoch's index deleted per script call after a reset (each with its one or two keys). */
const DRAIN_CHUNK = 500;
/** Keys looked at per `SCAN` call when a reset looks for indexes of epochs it cannot name (a replaced control key). */
const SCAN_COUNT = 1000;

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

/** Error replies that say the data at a key is not what the command needs. */
const DATA_REPLY = /^WRONGTYPE|not an integer|not a valid float/;
/** The `MRDATA <what> <problem>` error of a script (`scripts.ts`), with the location the server appends. */
const FLAGGED = /^MRDATA (control|state|index) ([^]*?)(?: script: \w+, on @user_script:\d+\.)?$/;

/** A new random id: versions and epochs of the controls, the store's run. */
const newId = (): string => randomBytes(8).toString('hex');

/** `text` as a `SCAN MATCH` pattern that matches it literally. */
const literalPattern = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');


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

  const control = controlSite(keys);
  /**
   * What a failure of a command on `site` is: the store's invalid data there (a 500: a script's `MRDATA` error, a
   * reply that the key holds another type or not a number, text that is not JSON), or else the store away (the 503).
   */
  const failure = (error: unknown, site: DataSite | undefined): GatewayError => {
    if (error instanceof GatewayError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const flagged = FLAGGED.exec(message);
    if (flagged && site) {
      const at = flagged[1] === 'control' ? control : flagged[1] === 'index' ? indexSite(site) : site;
      return storeDataInvalid(description, at.key, flagged[2]!, at.remedy);
    }
    if (site && (error instanceof SyntaxError || (error instanceof Error && error.name === 'ReplyError' && DATA_REPLY.test(message)))) {
      return storeDataInvalid(description, site.key, message.replace(/ script: \w+, on @user_script:\d+\.$/, ''), site.remedy);
    }
    return storeUnavailable(description, plainReason(error));
  };

  /**
   * Runs `command` (after the first attempt), turning every failure into the store's 503, or the 500 of invalid
   * data at `site`.
   */
  const run = <T>(command: () => Promise<T>, site?: DataSite): Promise<T> => {
    const go = (): Promise<T> => {
      let pending: Promise<T>;
      try {
        pending = command();
      } catch (error) {
        pending = Promise.reject(error);
      }
      return pending.catch((error: unknown) => {
        throw failure(error, site);
      });
    };
    return firstDone ? go() : firstAttempt.then(go);
  };

  /**
   * Deletes the per-key state of old epochs, a chunk per call until none is left (several replicas may share the
   * work). A failure leaves the rest to the next reset: the reset itself is done.
   */
  const drainStale = async (): Promise<void> => {
    try {
      while (Number(await client.mrDrainStale(keys.stale, keys.prefix, DRAIN_CHUNK)) > 0);
    } catch {
      // the store went away meanwhile: what is left stays in the stale set (and expires meanwhile)
    }
  };

  /**
   * The stored clock's text when it is not one a replica writes (`storedClockProblem`), else `''`: what a reset
   * drops. Nothing to drop when the control key is no hash (the reset replaces it whole).
   */
  const invalidClock = async (): Promise<string> => {
    if ((await client.type(keys.control)) !== 'hash') return '';
    const text = await client.hget(keys.control, 'clock');
    return text !== null && storedClockProblem(text) !== undefined ? text : '';
  };

  /**
   * After a reset replaced a control key of another type (its epochs unknown): every index of this prefix but the
   * new epochs' goes to the stale set, found with `SCAN` (`SCAN_COUNT` keys a call, never blocking the server).
   */
  const markUnnamedEpochs = async (epoch: string, counters: string): Promise<void> => {
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', `${literalPattern(keys.prefix)}*@*`, 'COUNT', SCAN_COUNT);
      cursor = next;
      const stale = found.flatMap((key) => {
        const entry = key.slice(keys.prefix.length);
        const match = /^(windows|ledgers|rules)@(.*)$/s.exec(entry);
        return match && match[2] !== (match[1] === 'rules' ? counters : epoch) ? [entry] : [];
      });
      if (stale.length > 0) await client.sadd(keys.stale, ...stale);
    } while (cursor !== '0');
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
        return readSharedControl({ clock: clock ?? null, scenario: scenario ?? null, version: version ?? null }, { description, key: keys.control });
      }, control),
    setClock: (setting) =>
      run(async () => {
        await client.mrSetControl(keys.control, 'clock', JSON.stringify({ offsetMs: setting.offsetMs, frozenAtMs: setting.frozenAtMs }), newId());
      }, control),
    setScenario: (scenario) =>
      run(async () => {
        await client.mrSetScenario(keys.control, keys.stale, JSON.stringify(scenario), newId(), newId());
        await drainStale();
      }, control),
    reset: () =>
      run(async () => {
        const epoch = newId();
        const counters = newId();
        const mended = Number(await client.mrReset(keys.control, keys.journal, keys.journalDone, keys.stale, newId(), epoch, counters, await invalidClock()));
        if (mended === 2) await markUnnamedEpochs(epoch, counters);
        await drainStale();
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
