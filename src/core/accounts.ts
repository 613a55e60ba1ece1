/**
 * API keys as the gateway knows them: which keys exist, their credit balance (USD), their user id and their
 * rate limits (`docs/behaviour.md`, "Keys and credits"; the 401 and 402 envelopes of every operation).
 *
 * Without a keys file every non-empty key is valid with unlimited credit and no per-key limit; the `:free`
 * per-model limit always applies.
 *
 * @module
 */
import { TRAFFIC_BOUND, boundedMap } from './bounded-map.js';
import { z } from 'zod';
import { bearerKey } from './auth.js';
import { readConfigFile, validateConfig, ConfigFileError } from './config-file.js';
import { GatewayError } from './errors.js';
import { userIdFor } from './ids.js';
import { FREE_MODEL_LIMIT, RateLimitSchema, RateLimiter, type RateLimit } from './rate-limit.js';
import type { HeaderMap } from './types.js';
import { roundUsd } from './usd.js';

/** A keys file or definition is invalid (message: file, path inside it, what was expected). */
export class KeysError extends ConfigFileError {
  override name = 'KeysError';
}

/** One key of a keys file. */
const KeyEntrySchema = z.strictObject({
  key: z.string().min(1).describe('The API key, as sent in Authorization: Bearer <key>.'),
  credits: z.number().min(0).optional().describe('Balance in USD; omitted = unlimited.'),
  user_id: z.string().min(1).optional().describe('user_id reported on 402 (default: derived from the key).'),
  rate_limit: RateLimitSchema.optional().describe('Per-key limit over all operations.'),
});

/** A keys file: `{"keys": [{"key": "sk-test-1", "credits": 0.05, "user_id": "user_...", "rate_limit": {...}}]}`. */
const KeysFileSchema = z.strictObject({ keys: z.array(KeyEntrySchema).min(1) });

/** One key entry, as written. */
export type KeyEntry = z.input<typeof KeyEntrySchema>;
/** One key entry, validated. */
type KeyEntryOutput = z.output<typeof KeyEntrySchema>;

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

/** Bound of the accounts kept (keys seen); the least recently used goes first past it, its spending forgotten. */
const MAX_ACCOUNTS = TRAFFIC_BOUND;

/**
 * Reads `option` into key entries.
 *
 * @throws {KeysError} for a missing or invalid file or definition.
 */
export function loadKeys(option: KeysOption): KeyEntryOutput[] {
  if (typeof option === 'string') return readConfigFile(option, KeysFileSchema, KeysError).keys;
  const list = Array.isArray(option) ? option : (option as { keys: readonly KeyEntry[] }).keys;
  const entries = list.map((entry) => (typeof entry === 'string' ? { key: entry } : entry));
  return validateConfig('keys option', { keys: entries }, KeysFileSchema, KeysError).keys;
}

/** The keys, balances and rate-limit windows of one gateway. */
export class Accounts {
  readonly #entries: Map<string, KeyEntryOutput> | undefined;
  readonly #accounts = boundedMap<string, Account>(MAX_ACCOUNTS);
  readonly #limits = new RateLimiter();

  /** @param entries the valid keys; `undefined` accepts any non-empty key with unlimited credit. */
  constructor(entries: readonly KeyEntryOutput[] | undefined) {
    this.#entries = entries ? new Map(entries.map((e) => [e.key, e])) : undefined;
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
    account = { key, userId: entry.user_id ?? userIdFor(`key:${key}`), credits: entry.credits ?? null, rateLimit: entry.rate_limit };
    this.#accounts.set(key, account);
    return account;
  }

  /** Applies the key's own rate limit, if it has one (see {@link RateLimiter.consume}). */
  consumeKeyLimit(account: Account, nowMs: number): void {
    if (account.rateLimit) this.#limits.consume(`key\u0000${account.key}`, account.rateLimit, nowMs);
  }

  /** Applies the `:free` variant limit of `modelId` for this key, {@link FREE_MODEL_LIMIT} (20 requests a minute). */
  consumeFreeModelLimit(account: Account, modelId: string, nowMs: number): void {
    this.#limits.consume(`free\u0000${account.key}\u0000${modelId}`, FREE_MODEL_LIMIT, nowMs);
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
    account.credits = Math.max(0, roundUsd(account.credits - costUsd));
  }

  /** Restores every balance and clears every rate-limit window. */
  reset(): void {
    this.#accounts.clear();
    this.#limits.clear();
  }
}
