/**
 * The Redis store's client and its connection (`redis-store.ts`): `ioredis`, loaded only when a store is opened,
 * set so that while the server is away commands fail at once (no offline queue, no retries of commands in flight,
 * `commandTimeout` for a server that stalls), the client reconnecting by itself; the first connection attempt,
 * which commands wait for; and losing and regaining the connection reported once each.
 *
 * @module
 */
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import { StoreConnectError } from '../../core/base/errors.js';
import type { StoreOpenOptions } from '../../core/gateway/platform.js';
import { SCRIPTS, type ScriptCommands } from './scripts.js';

/** How long the first connection may take before {@link StoreConnection.ready} rejects, ms. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long one command may take before it fails (a store that stalls without closing), ms. */
export const COMMAND_TIMEOUT_MS = 2000;
/** Longest wait between reconnection attempts, ms. */
const RETRY_CAP_MS = 1000;

/** The client of a store, with its scripts defined, and the state of its connection. */
export interface StoreConnection {
  readonly client: Redis & ScriptCommands;
  /** Whether the store was closed (set by its `close`): losing the connection is then not reported. */
  closed: boolean;
  /** Runs `go` at once when the first connection attempt has ended, else once it has. */
  afterFirstAttempt<T>(go: () => Promise<T>): Promise<T>;
  /**
   * Resolves once connected (`GatewayStore.ready`).
   *
   * @throws {StoreConnectError} when the first attempt failed, or took {@link CONNECT_TIMEOUT_MS}.
   */
  ready(): Promise<void>;
}

/**
 * A client of the server at `url` (`description` in messages), connecting in the background (at once, synchronously:
 * nothing is awaited here). Losing and regaining the connection is reported once each through `onStatus`
 * (`store <description> lost: <reason>`, `store <description> is back`).
 */
export function connectStore(url: string, description: string, onStatus: StoreOpenOptions['onStatus']): StoreConnection {
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

  let lastError: Error | undefined;
  /** Whether the store was connected once, and whether it is lost since (each transition reported once). */
  let connectedOnce = false;
  let lost = false;
  const reportLost = (reason: string): void => {
    if (!connectedOnce || lost || connection.closed) return;
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

  const connection: StoreConnection = {
    client,
    closed: false,
    afterFirstAttempt: (go) => (firstDone ? go() : firstAttempt.then(go)),

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
  };
  return connection;
}
