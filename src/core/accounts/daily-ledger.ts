/**
 * Sums by UTC day, for what `GET /key` reports (the gateway's OpenAPI operation `getCurrentKey`): a key's spending
 * in total, for the current UTC day, week (Monday to Sunday) and month, and its `:free` requests of the day.
 *
 * @module
 */
import type { LedgerState } from './accounts-store.js';
import { roundUsd } from '../base/usd.js';

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;
/** Days kept: enough for the longest month and the week around it. */
const DAYS_KEPT = 40;

/** The sums of a {@link DailyLedger} at one time. */
export interface DailySums {
  total: number;
  /** The current UTC day. */
  daily: number;
  /** The current UTC week, Monday to Sunday. */
  weekly: number;
  /** The current UTC month. */
  monthly: number;
}

/** The UTC day number of `ms` (days since 1970-01-01). */
function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/**
 * Amounts added at times (epoch ms), summed in total and by UTC day. Days older than 40 days before the latest
 * addition are dropped (they count in the total only). Sums are rounded to 12 decimals (`roundUsd`), so USD
 * amounts add up exactly enough to compare with the records they come from.
 *
 * @example
 * const ledger = new DailyLedger();
 * ledger.add(0.0012, clock.now());
 * ledger.sums(clock.now()); // { total: 0.0012, daily: 0.0012, weekly: 0.0012, monthly: 0.0012 }
 */
export class DailyLedger {
  #total = 0;
  /** Sums by UTC day; made on the first addition (an account that never spends keeps no map). */
  #days: Map<number, number> | undefined;

  /** Everything added, at any time. */
  get total(): number {
    return this.#total;
  }

  /** Adds `amount` at `nowMs` (epoch ms). */
  add(amount: number, nowMs: number): void {
    const day = dayOf(nowMs);
    const days = (this.#days ??= new Map());
    this.#total = roundUsd(this.#total + amount);
    days.set(day, roundUsd((days.get(day) ?? 0) + amount));
    for (const kept of days.keys()) if (kept < day - DAYS_KEPT) days.delete(kept);
  }

  /** The total and the sums by UTC day (the map itself: read it, never change it). */
  state(): LedgerState {
    return { total: this.#total, days: this.#days ?? EMPTY_DAYS };
  }

  /** The total, and the sums of the UTC day, week (from Monday) and month that hold `nowMs`. Later days do not count. */
  sums(nowMs: number): DailySums {
    return ledgerSums(this.state(), nowMs);
  }
}

const EMPTY_DAYS: ReadonlyMap<number, number> = new Map();

/**
 * The sums of a ledger as a store gives it ({@link LedgerState}) at `nowMs` (epoch ms): its total, and its days'
 * sums for the UTC day, week (Monday to Sunday) and month that hold `nowMs`; later days do not count.
 */
export function ledgerSums(state: LedgerState, nowMs: number): DailySums {
  const today = dayOf(nowMs);
  const weekStart = today - ((today + 3) % 7); // 1970-01-01 was a Thursday
  const date = new Date(nowMs);
  const monthStart = dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  let daily = 0;
  let weekly = 0;
  let monthly = 0;
  for (const [day, amount] of state.days) {
    if (day > today) continue;
    if (day === today) daily = roundUsd(daily + amount);
    if (day >= weekStart) weekly = roundUsd(weekly + amount);
    if (day >= monthStart) monthly = roundUsd(monthly + amount);
  }
  return { total: roundUsd(state.total), daily, weekly, monthly };
}
