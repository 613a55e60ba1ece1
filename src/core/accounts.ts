/**
 * API keys as the gateway knows them: which keys exist, their credit balance (USD), their user id and their
 * rate limits (spec §5; `facts/real-gateway.md`, "Messages seen" and the `:free` variant's 20 requests/minute).
 *
 * Without a keys file every non-empty key is valid with unlimited credit and no per-key limit; the `:free`
 * per-model limit always applies.
 *
 * @module
 */
import { z } from 'zod';
import { bearerKey } from './auth.js';
import { readConfigFile, validateConfig, ConfigFileError } from './config-file.js';
import { GatewayError } from './errors.js';
import { rateLimitHeaders, userIdFor } from './scenarios/effects.js';
import type { HeaderMap } from './types.js';

/** A keys file or definition is invalid (message: file, path inside it, what was expected). */
export class KeysError extends ConfigFileError {
  override name = 'KeysError';
}

/** A rate limit: at most `requests` requests per `interval_s` seconds (a fixed window from the first request). */
export const RateLimitSchema = z.strictObject({
  requests: z.int().min(1).describe('Requests allowed per window.'),
  interval_s: z.number().positive().describe('Window length, seconds.'),
});

/** One key of a keys file. */
export const KeyEntrySchema = z.strictObject({
  key: z.string().min(1).describe('The API key, as sent in Authorization: Bearer <key>.'),
  credits: z.number().min(0).optional().describe('Balance in USD; omitted = unlimited.'),
  user_id: z.string().min(1).optional().describe('user_id reported on 402 (default: derived from the key).'),
  rate_limit: RateLimitSchema.optional().describe('Per-key limit over all operations.'),
});

/** A keys file: `{"keys": [{"key": "sk-test-1", "credits": 0.05, "user_id": "user_...", "rate_limit": {...}}]}`. */
export const KeysFileSchema = z.strictObject({ keys: z.array(KeyEntrySchema).min(1) });

/** One key entry. */
export type KeyEntry = z.input<typeof KeyEntrySchema>;
/** A rate limit. */
export type RateLimit = z.output<typeof RateLimitSchema>;

/** The `:free` variants' limit on the real gateway: 20 requests a minute, per key and model. */
export const FREE_MODEL_LIMIT: RateLimit = { requests: 20, interval_s: 60 };

/**
 * What option `keys` accepts: key strings (unlimited credit), entries, a keys-file object, or the path of a
 * JSON/YAML keys file.
 */
export type KeysOption = string | readonly (string | KeyEntry)[] | { keys: readonly KeyEntry[] };

/** A key's live state. */
export interface Account {
  readonly key: string;
  readonly userId: string;
  /** Balance in USD, or `null` for unlimited. */
  credits: number | null;
  readonly rateLimit: RateLimit | undefined;
}

/** Bound of the per-key state kept (accounts, rate-limit windows); the oldest entry goes past it. */
const MAX_TRACKED = 100_000;

function evictOldest(map: Map<string, unknown>): void {
  if (map.size > MAX_TRACKED) map.delete(map.keys().next().value as string);
}

interface Window {
  start: number;
  count: number;
}

/**
 * Reads `option` into key entries.
 *
 * @throws {KeysError} for a missing or invalid file or definition.
 */
export function loadKeys(option: KeysOption): z.output<typeof KeyEntrySchema>[] {
  if (typeof option === 'string') return readConfigFile(option, KeysFileSchema, KeysError).keys;
  const list = Array.isArray(option) ? option : (option as { keys: readonly KeyEntry[] }).keys;
  const entries = list.map((entry) => (typeof entry === 'string' ? { key: entry } : entry));
  return validateConfig('keys option', { keys: entries }, KeysFileSchema, KeysError).keys;
}

function sessionKey(key: string): string {
  return `key:${key}`;
}

/** The keys, balances and rate-limit windows of one gateway. */
export class Accounts {
  readonly #entries: Map<string, z.output<typeof KeyEntrySchema>> | undefined;
  #accounts = new Map<string, Account>();
  #windows = new Map<string, Window>();

  /** @param entries the valid keys; `undefined` accepts any non-empty key with unlimited credit. */
  constructor(entries: readonly z.output<typeof KeyEntrySchema>[] | undefined) {
    this.#entries = entries ? new Map(entries.map((e) => [e.key, e])) : undefined;
  }

  /** Whether a keys list limits the valid keys. */
  get restricted(): boolean {
    return this.#entries !== undefined;
  }

  /**
   * Checks the request's credential.
   *
   * @throws {GatewayError} 401 `No auth credentials found` without a bearer key; 401 `User not found.` for a key
   *   not in the list. Neither carries a `user_id`, as on the real gateway.
   */
  authenticate(headers: HeaderMap): Account {
    const key = bearerKey(headers);
    if (key === undefined) throw new GatewayError(401, { message: 'No auth credentials found' });
    let account = this.#accounts.get(key);
    if (account) return account;
    const entry = this.#entries ? this.#entries.get(key) : { key };
    if (!entry) throw new GatewayError(401, { message: 'User not found.' });
    account = { key, userId: entry.user_id ?? userIdFor(sessionKey(key)), credits: entry.credits ?? null, rateLimit: entry.rate_limit };
    this.#accounts.set(key, account);
    evictOldest(this.#accounts);
    return account;
  }

  /**
   * Counts one request against `limit` in the window named `scope`.
   *
   * @throws {GatewayError} 429 `Rate limit exceeded` with `Retry-After` (seconds until the window resets),
   *   `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0`, `X-RateLimit-Reset` (unix ms) and the same three in
   *   `error.metadata.headers` (facts file, 429).
   */
  consume(scope: string, limit: RateLimit, nowMs: number): void {
    const intervalMs = limit.interval_s * 1000;
    let window = this.#windows.get(scope);
    if (!window || nowMs >= window.start + intervalMs || nowMs < window.start) {
      window = { start: nowMs, count: 0 };
      this.#windows.delete(scope);
      this.#windows.set(scope, window);
      evictOldest(this.#windows);
    }
    if (window.count < limit.requests) {
      window.count++;
      return;
    }
    const resetMs = window.start + intervalMs;
    const headers = rateLimitHeaders(limit.requests, 0, resetMs);
    throw new GatewayError(429, {
      message: 'Rate limit exceeded',
      metadata: { headers },
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((resetMs - nowMs) / 1000))), ...headers },
    });
  }

  /** Applies the key's own rate limit, if it has one (see {@link consume}). */
  consumeKeyLimit(account: Account, nowMs: number): void {
    if (account.rateLimit) this.consume(`key\u0000${account.key}`, account.rateLimit, nowMs);
  }

  /** Applies the `:free` variant limit of `modelId` for this key (20 requests a minute). */
  consumeFreeModelLimit(account: Account, modelId: string, nowMs: number): void {
    this.consume(`free\u0000${account.key}\u0000${modelId}`, FREE_MODEL_LIMIT, nowMs);
  }

  /**
   * Deducts `costUsd` from the key's balance.
   *
   * @throws {GatewayError} 402 `Insufficient credits. Add more using https://openrouter.ai/credits` with the
   *   key's `user_id` when the balance is below the cost (nothing is deducted then).
   */
  charge(account: Account, costUsd: number): void {
    if (account.credits === null || costUsd <= 0) return;
    if (account.credits + 1e-12 < costUsd) throw new GatewayError(402, { userId: account.userId });
    account.credits = Math.max(0, Math.round((account.credits - costUsd) * 1e12) / 1e12);
  }

  /** Restores every balance and clears every rate-limit window. */
  reset(): void {
    this.#accounts.clear();
    this.#windows.clear();
  }
}
