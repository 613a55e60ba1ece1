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
import { KeysError } from '../base/errors.js';
import { TRAFFIC_BOUND, boundedMap } from '../base/bounded-map.js';
import * as z from 'zod';
import { bearerKey } from './auth.js';
import { validateConfig } from '../base/validate-config.js';
import { ledgerSums, type DailySums } from './daily-ledger.js';
import { GatewayError } from '../base/error-envelope.js';
import { userIdFor } from '../base/ids.js';
import { FREE_MODEL_LIMIT, RateLimitSchema, windowRefusal, type RateLimit } from './rate-limit.js';
import type { AccountsStore, WindowVerdict } from './accounts-store.js';
import { andThen, type HeaderMap, type MaybePromise } from '../base/types.js';
import { forgetKeyDigests, keyDigest } from './session.js';
import { roundUsd } from '../base/usd.js';

/** One key of a keys file. */
const KeyEntrySchema = z.lazy(() =>
  z.strictObject(
    {
      key: z.string().min(1).describe('The API key, as sent in Authorization: Bearer <key>.'),
      credits: z.number().min(0).optional().describe('Balance in USD; omitted = unlimited.'),
      user_id: z.string().min(1).optional().describe('user_id reported on 402 (default: derived from the key).'),
      rate_limit: RateLimitSchema.optional().describe('Per-key limit over all operations.'),
      management: z.boolean().optional().describe('A management key: it may read GET /credits (default false).'),
      free_tier: z.boolean().optional().describe('GET /key reports is_free_tier: true (default false).'),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'expected a key (a string) or an entry such as {"key": "sk-...", "credits": 1}' : undefined) },
  ),
);

/** One key as written: its string alone (unlimited credit), or an entry. */
const KeyItemSchema = z.lazy(() =>
  z.preprocess((item) => (typeof item === 'string' ? { key: item } : item), KeyEntrySchema),
);

/** The list of keys: at least one, each a key string or an entry. */
const KeyListSchema = z.lazy(() => z.array(KeyItemSchema).min(1, 'expected at least one key'));

/**
 * A keys file, and option `keys` given as data, as `{"keys": [...]}`, each item a key string or an entry such as
 * `{"key": "sk-test-1", "credits": 0.05, "user_id": "user_...", "rate_limit": {...}}`. The list may also stand
 * alone: {@link parseKeys} checks it with `KeyListSchema`, so its problems are at `[1]`, not `keys[1]`.
 */
const KeysFileSchema = z.lazy(() => z.strictObject({ keys: KeyListSchema }));

/** One key entry, as written. */
export type KeyEntry = z.input<typeof KeyEntrySchema>;
/** One key entry, validated. */
export type KeyEntryOutput = z.output<typeof KeyEntrySchema>;

/** Keys given as data, on every platform: key strings (unlimited credit), entries, or a keys-file object. */
export type KeyList = readonly (string | KeyEntry)[] | { keys: readonly (string | KeyEntry)[] };

/** What option `keys` accepts: a {@link KeyList}, or (Node.js only) the path of a JSON/YAML keys file. */
export type KeysOption = string | KeyList;

/** A key as the gateway knows it; what it spent is in the gateway's store ({@link Accounts.keyState}). */
export interface Account {
  /** The key's {@link keyDigest} (SHA-256, 64 hex digits): what per-key state is keyed by; never the key. */
  readonly digest: string;
  /** The key as `GET /key` labels it ({@link keyLabel}). */
  readonly label: string;
  readonly userId: string;
  /** The key's credit limit from the keys file, USD, or `null` for unlimited. */
  readonly limit: number | null;
  readonly rateLimit: RateLimit | undefined;
  /** Whether the key is a management key (keys file `management: true`). */
  readonly management: boolean;
  /** Whether `GET /key` calls it a free-tier key (keys file `free_tier: true`). */
  readonly freeTier: boolean;
}

/** What a key spent and has left, as `GET /key` reports it (operation `getCurrentKey`). */
export interface KeyState {
  /** Balance in USD (`limit` minus what was spent, at least 0), or `null` for unlimited. */
  readonly remaining: number | null;
  /** What the key spent, USD: the `total_cost` of each paid call, summed by the simulator's UTC day, week and month. */
  readonly usage: DailySums;
  /** The key's `:free` variant requests, summed the same way. */
  readonly freeRequests: DailySums;
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

/** Bound of the accounts kept (keys seen); the least recently used goes first past it (its spending stays in the store). */
const MAX_ACCOUNTS = TRAFFIC_BOUND;

/**
 * Validates keys given as data: option `keys`, or the parsed contents of a keys file.
 *
 * @param source what to name in errors: the file's path, or `keys option` (the default).
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
    rateLimit: entry.rate_limit,
    management: entry.management ?? false,
    freeTier: entry.free_tier ?? false,
  };
}

/**
 * The keys of one gateway, and what they spend and count, kept in its store (`store/types.ts`): in memory, or
 * shared by every replica (a charge is then one atomic step on the store, exact across replicas).
 */
export class Accounts {
  readonly #entries: Map<string, KeyEntryOutput> | undefined;
  readonly #accounts = boundedMap<string, Account>(MAX_ACCOUNTS);
  readonly #store: AccountsStore;

  /**
   * @param entries the valid keys; `undefined` accepts any non-empty key with unlimited credit.
   * @param store where balances, usage and rate-limit windows are kept.
   */
  constructor(entries: readonly KeyEntryOutput[] | undefined, store: AccountsStore) {
    this.#entries = entries ? new Map(entries.map((e) => [e.key, e])) : undefined;
    this.#store = store;
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

  /** What `account` spent by `nowMs` (epoch ms) and has left, and its `:free` requests. */
  keyState(account: Account, nowMs: number): MaybePromise<KeyState> {
    return andThen(this.#store.ledger('usage', account.digest), (usage) =>
      andThen(this.#store.ledger('free', account.digest), (free) => ({
        remaining: account.limit === null ? null : Math.max(0, roundUsd(account.limit - usage.total)),
        usage: ledgerSums(usage, nowMs),
        freeRequests: ledgerSums(free, nowMs),
      })),
    );
  }

  /**
   * The credits and spending of the user that owns `account`, over every key of the keys file with the same
   * `user_id` (without a keys file: the key alone). A key without a limit counts as
   * {@link UNLIMITED_TOTAL_CREDITS_USD}; the spending of a key not used since the last reset is 0.
   */
  userTotals(account: Account): MaybePromise<CreditTotals> {
    const keys = this.#entries
      ? [...this.#entries.values()].filter((e) => (e.user_id ?? userIdFor(`key:${e.key}`)) === account.userId).map((e) => ({ digest: keyDigest(e.key), limit: e.credits ?? null }))
      : [{ digest: account.digest, limit: account.limit }];
    const credits = keys.reduce((sum, key) => roundUsd(sum + (key.limit ?? UNLIMITED_TOTAL_CREDITS_USD)), 0);
    const sumFrom = (index: number, usage: number): MaybePromise<CreditTotals> =>
      index === keys.length
        ? { total_credits: credits, total_usage: usage }
        : andThen(this.#store.ledger('usage', keys[index]!.digest), (ledger) => sumFrom(index + 1, roundUsd(usage + ledger.total)));
    return sumFrom(0, 0);
  }

  /**
   * Applies the key's own rate limit, if it has one.
   *
   * @throws {GatewayError} (or rejects with) the 429 of {@link windowRefusal} past the limit.
   */
  consumeKeyLimit(account: Account, nowMs: number): MaybePromise<void> {
    const limit = account.rateLimit;
    if (!limit) return;
    return andThen(this.#store.countWindow(`key\u0000${account.digest}`, limit, nowMs), (verdict) => refuseUnless(verdict, limit, nowMs));
  }

  /**
   * Applies the `:free` variant limit of `modelId` for this key, {@link FREE_MODEL_LIMIT} (20 requests a minute),
   * and counts the request in the key's `:free` requests when it passes.
   *
   * @throws {GatewayError} (or rejects with) the 429 of {@link windowRefusal} past the limit.
   */
  consumeFreeModelLimit(account: Account, modelId: string, nowMs: number): MaybePromise<void> {
    return andThen(this.#store.countWindow(`free\u0000${account.digest}\u0000${modelId}`, FREE_MODEL_LIMIT, nowMs), (verdict) => {
      refuseUnless(verdict, FREE_MODEL_LIMIT, nowMs);
      return this.#store.addToLedger('free', account.digest, 1, nowMs);
    });
  }

  /**
   * Charges `costUsd` to the key at `nowMs` (epoch ms): deducted from its balance, added to its usage (unlimited
   * keys count usage too).
   *
   * @throws {GatewayError} (or rejects with) 402 `Insufficient credits. Add more using https://openrouter.ai/credits`
   *   with the key's `user_id` when the balance is below the cost (nothing is deducted or counted then).
   */
  charge(account: Account, costUsd: number, nowMs: number): MaybePromise<void> {
    if (costUsd <= 0) return;
    return andThen(this.#store.charge(account.digest, account.limit, costUsd, nowMs), (charged) => {
      if (!charged) throw new GatewayError(402, { userId: account.userId });
    });
  }

  /** Forgets the accounts and key digests memoized (what keys spent is cleared by the store's `reset`). */
  reset(): void {
    this.#accounts.clear();
    forgetKeyDigests();
  }
}

/** @throws {GatewayError} the 429 of {@link windowRefusal} when `verdict` refused the request. */
function refuseUnless(verdict: WindowVerdict, limit: RateLimit, nowMs: number): void {
  if (!verdict.allowed) throw windowRefusal(limit, verdict.resetMs, nowMs);
}
