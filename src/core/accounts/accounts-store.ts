/**
 * What the accounts need of the gateway's store (`src/core/store/types.ts`, `GatewayStore`, which extends this):
 * fixed windows for rate limits, and per-key ledgers of USD spent and `:free` requests. Declared here, beside its
 * user, so the accounts depend on no store; the memory store and the Valkey/Redis store implement it.
 *
 * @module
 */
import type { MaybePromise } from '../base/types.js';
import type { RateLimit } from './rate-limit.js';

/** What one request counted in a fixed window: allowed, or refused until `resetMs` (epoch ms, simulator clock). */
export type WindowVerdict = { readonly allowed: true } | { readonly allowed: false; readonly resetMs: number };

/** The two sums kept per key: USD spent (`usage`) and `:free` variant requests (`free`). */
export type LedgerName = 'usage' | 'free';

/**
 * A ledger as stored: the total and the sums by UTC day (day number since 1970-01-01 → amount), the days kept
 * being at most the last 40 before the latest addition (`accounts/daily-ledger.ts`).
 */
export interface LedgerState {
  readonly total: number;
  readonly days: ReadonlyMap<number, number>;
}

/** The state of a gateway's keys, wherever it is kept (`GatewayStore` in `src/core/store/types.ts`). */
export interface AccountsStore {
  /**
   * Counts one request against `limit` in the fixed window `scope` at `nowMs` (epoch ms, simulator clock): a
   * window starts at its first request and lasts `interval_s`; a clock moved back before its start opens a new one
   * (`accounts/rate-limit.ts`).
   */
  countWindow(scope: string, limit: RateLimit, nowMs: number): MaybePromise<WindowVerdict>;
  /**
   * Charges `costUsd` to key `digest` at `nowMs`, in one step: refused (`false`, nothing counted) when the key has a
   * limit (`limitUsd`, USD) and what it already spent leaves less than the cost; else added to its `usage` ledger.
   */
  charge(digest: string, limitUsd: number | null, costUsd: number, nowMs: number): MaybePromise<boolean>;
  /** Adds `amount` to ledger `name` of key `digest` at `nowMs`. */
  addToLedger(name: LedgerName, digest: string, amount: number, nowMs: number): MaybePromise<void>;
  /** Ledger `name` of key `digest` (empty for a key that never added to it since the last reset). */
  ledger(name: LedgerName, digest: string): MaybePromise<LedgerState>;
}
