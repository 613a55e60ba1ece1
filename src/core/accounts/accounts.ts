/**
 * API keys as the gateway knows them: which keys exist, their credit balance (USD), their user id, their rate
 * limits and what they spent (`docs/behaviour.md`, "Keys and credits"; the 401 and 402 envelopes of every
 * operation, and the operations `getCurrentKey` and `getCredits`).
 *
 * Without a keys file every non-empty key is valid with unlimited credit and no per-key limit, and its spending
 * still counts; the `:free` per-model limit always applies.
 *
 * @module
 */
import { TRAFFIC_BOUND, boundedMap } from '../bounded-map.js';
import * as z from 'zod';
import { bearerKey } from './auth.js';
import { validateConfig, ConfigFileError } from '../config/validate-config.js';
import { DailyLedger } from './daily-ledger.js';
import { GatewayError } from '../http/error-envelope.js';
import { userIdFor } from '../ids.js';
import { FREE_MODEL_LIMIT, RateLimitSchema, RateLimiter, type RateLimit } from './rate-limit.js';
import type { HeaderMap } from '../types.js';
import { forgetKeyDigests, keyDigest } from './session.js';
import { roundUsd } from './usd.js';

/** A keys file or definition is invalid (message: file, path inside it, what was expected). */
export class KeysError extends ConfigFileError {
  override name = 'KeysError';
}

/** One key of a keys file. */
const KeyEntrySchema = z.strictObject(
  {
    key: z.string().min(1).describe('The API key, as sent in Authorization: Bearer <key>.'),
    credits: z.number().min(0).optional().describe('Balance in USD; omitted = unlimited.'),
    user_id: z.string().min(1).optional().describe('user_id reported on 402 (default: derived from the key).'),
    rate_limit: RateLimitSchema.optional().describe('Per-key limit over all operations.'),
    management: z.boolean().optional().describe('A management key: it may read GET /credits (default false).'),
    free_tier: z.boolean().optional().describe('GET /key reports is_free_tier: true (default false).'),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'expected a key (a string) or an entry such as {"key": "sk-...", "credits": 1}' : undefined) },
);

/** One key as written: its string alone (unlimited credit), or an entry. */
const KeyItemSchema = z.preprocess((item) => (typeof item === 'string' ? { key: item } : item), KeyEntrySchema);

/** The list of keys: at least one, each a key string or an entry. */
const KeyListSchema = z.array(KeyItemSchema).min(1, 'expected at least one key');

/**
 * A keys file, and option `keys` given as data, as `{"keys": [...]}`, each item a key string or an entry such as
 * `{"key": "sk-test-1", "credits": 0.05, "user_id": "user_...", "rate_limit": {...}}`. The list may also stand
 * alone: {@link parseKeys} checks it with `KeyListSchema`, so its problems are at `[1]`, not `keys[1]`.
 */
const KeysFileSchema = z.strictObject({ keys: KeyListSchema });

/** One key entry, as written. */
export type KeyEntry = z.input<typeof KeyEntrySchema>;
/** One key entry, validated. */
export type KeyEntryOutput = z.output<typeof KeyEntrySchema>;

/** Keys given as data, on every platform: key strings (unlimited credit), entries, or a keys-file object. */
export type KeyList = readonly (string | KeyEntry)[] | { keys: readonly (string | KeyEntry)[] };

/** What option `keys` accepts: a {@link KeyList}, or (Node.js only) the path of a JSON/YAML keys file. */
export type KeysOption = string | KeyList;

/** A key's live state. */
export interface Account {
  /** The key's {@link keyDigest} (SHA-256, 64 hex digits): what per-key stores are keyed by; never the key. */
  readonly digest: string;
  /** The key as `GET /key` labels it ({@link keyLabel}). */
  readonly label: string;
  readonly userId: string;
  /** The key's credit limit from the keys file, USD, or `null` for unlimited. */
  readonly limit: number | null;
  /** Balance in USD (`limit` minus what was spent), or `null` for unlimited. */
  credits: number | null;
  readonly rateLimit: RateLimit | undefined;
  /** Whether the key is a management key (keys file `management: true`). */
  readonly management: boolean;
  /** Whether `GET /key` calls it a free-tier key (keys file `free_tier: true`). */
  readonly freeTier: boolean;
  /** What the key spent, USD: the `total_cost` of each paid call, at the simulator's time of the call. */
  readonly usage: DailyLedger;
  /** The key's `:free` variant requests, counted at the simulator's time of each. */
  readonly freeRequests: DailyLedger;
}

/**
 * `total_credits` reported by `GET /credits` for a key without a credit limit, USD: such keys never run out, and
 * the gateway's field is a number, so the simulator states a round figure.
 */
export const UNLIMITED_TOTAL_CREDITS_USD = 1000;

/** The totals `GET /credits` reports for a user, USD. */
export interface CreditTotals {
  total_credits: number;
  total_usage: number;
}

/** Bound of the accounts kept (keys seen); the least recently used goes first past it, its spending forgotten. */
const MAX_ACCOUNTS = TRAFFIC_BOUND;

/**
 * Validates keys given as data: option `keys`, or the parsed contents of a keys file.
 *
 * @param source - what to name in errors: the file's path, or `keys option` (the default).
 * @returns the key entries, strings turned into `{ key }`.
 * @throws {KeysError} naming `source` and the path of the first problem (`[1]` in a bare list, `keys[1]` in
 *   `{ keys }`).
 */
export function parseKeys(list: unknown, source = 'keys option'): KeyEntryOutput[] {
  return Array.isArray(list) ? validateConfig(source, list, KeyListSchema, KeysError) : validateConfig(source, list, KeysFileSchema, KeysError).keys;
}

/**
 * A key as `GET /key` labels it: its start (up to 12 characters, at most a third of the key) and, for keys of 12
 * characters or more, its last three, around `...`; never the whole key (`sk-or-v1-au7...890`; operation
 * `getCurrentKey`).
 */
export function keyLabel(key: string): string {
  const chars = [...key];
  const tail = chars.length >= 12 ? chars.slice(-3).join('') : '';
  const label = `${chars.slice(0, Math.min(12, Math.floor(chars.length / 3))).join('')}...${tail}`;
  // A short key that itself ends in `...` could read as its own label.
  return label === key ? '...' : label;
}

/** A fresh account for a key entry whose key has digest `digest`. */
function accountOf(entry: Pick<KeyEntryOutput, 'key'> & Partial<KeyEntryOutput>, digest: string): Account {
  const limit = entry.credits ?? null;
  return {
    digest,
    label: keyLabel(entry.key),
    userId: entry.user_id ?? userIdFor(`key:${entry.key}`),
    limit,
    credits: limit,
    rateLimit: entry.rate_limit,
    management: entry.management ?? false,
    freeTier: entry.free_tier ?? false,
    usage: new DailyLedger(),
    freeRequests: new DailyLedger(),
  };
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
    const digest = keyDigest(key);
    let account = this.#accounts.get(digest);
    if (account) return account;
    const entry = this.#entries ? this.#entries.get(key) : { key };
    if (!entry) throw new GatewayError(401, { message: 'User not found.' });
    account = accountOf(entry, digest);
    this.#accounts.set(digest, account);
    return account;
  }

  /** Whether a keys file lists the valid keys (otherwise any key is accepted). */
  get configured(): boolean {
    return this.#entries !== undefined;
  }

  /**
   * The credits and spending of the user that owns `account`, over every key of the keys file with the same
   * `user_id` (without a keys file: the key alone). A key without a limit counts as
   * {@link UNLIMITED_TOTAL_CREDITS_USD}; the spending of a key not used since the last reset is 0.
   */
  userTotals(account: Account): CreditTotals {
    if (!this.#entries) {
      return { total_credits: roundUsd(account.limit ?? UNLIMITED_TOTAL_CREDITS_USD), total_usage: roundUsd(account.usage.total) };
    }
    const entries = [...this.#entries.values()].filter((e) => (e.user_id ?? userIdFor(`key:${e.key}`)) === account.userId);
    let credits = 0;
    let usage = 0;
    for (const entry of entries) {
      credits = roundUsd(credits + (entry.credits ?? UNLIMITED_TOTAL_CREDITS_USD));
      const digest = keyDigest(entry.key);
      const live = digest === account.digest ? account : this.#accounts.get(digest);
      usage = roundUsd(usage + (live?.usage.total ?? 0));
    }
    return { total_credits: credits, total_usage: usage };
  }

  /** Applies the key's own rate limit, if it has one (see {@link RateLimiter.consume}). */
  consumeKeyLimit(account: Account, nowMs: number): void {
    if (account.rateLimit) this.#limits.consume(`key\u0000${account.digest}`, account.rateLimit, nowMs);
  }

  /**
   * Applies the `:free` variant limit of `modelId` for this key, {@link FREE_MODEL_LIMIT} (20 requests a minute),
   * and counts the request in `account.freeRequests` when it passes.
   */
  consumeFreeModelLimit(account: Account, modelId: string, nowMs: number): void {
    this.#limits.consume(`free\u0000${account.digest}\u0000${modelId}`, FREE_MODEL_LIMIT, nowMs);
    account.freeRequests.add(1, nowMs);
  }

  /**
   * Deducts `costUsd` from the key's balance and adds it to the key's usage at `nowMs` (epoch ms; unlimited keys
   * count usage too).
   *
   * @throws {GatewayError} 402 `Insufficient credits. Add more using https://openrouter.ai/credits` with the
   *   key's `user_id` when the balance is below the cost (nothing is deducted or counted then).
   */
  charge(account: Account, costUsd: number, nowMs: number): void {
    if (costUsd <= 0) return;
    if (account.credits !== null) {
      if (account.credits + 1e-12 < costUsd) throw new GatewayError(402, { userId: account.userId });
      account.credits = Math.max(0, roundUsd(account.credits - costUsd));
    }
    account.usage.add(costUsd, nowMs);
  }

  /** Restores every balance, clears every rate-limit window and forgets the key digests memoized. */
  reset(): void {
    this.#accounts.clear();
    this.#limits.clear();
    forgetKeyDigests();
  }
}
