/**
 * The simulator's clock: the one source of time for record timestamps, generation readiness, rate-limit
 * windows, `Retry-After` and `X-RateLimit-Reset`.
 *
 * @module
 */

/** Returns the current time in milliseconds since the Unix epoch. */
export type Now = () => number;

/** The real clock (`Date.now`; under vitest fake timers, the fake time). */
export const systemNow: Now = () => Date.now();

let lastMs = Number.NaN;
let lastIso = '';

/** Formats epoch milliseconds as ISO 8601 with an explicit UTC offset, e.g. `2026-11-21T11:18:40.123+00:00`. */
export function isoWithOffset(ms: number): string {
  // Requests under load share milliseconds: format each one once.
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString().replace('Z', '+00:00');
  }
  return lastIso;
}

/**
 * Parses an ISO 8601 time (`2026-01-02T03:04:05Z`, with an offset, or a date) to epoch ms.
 *
 * @returns epoch ms, or `undefined` when `text` is not a valid time.
 */
export function parseIsoTime(text: string): number | undefined {
  const match = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?$/i.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = match;
  // Date.parse rolls impossible dates over (2026-02-30 → 2 March); refuse them instead.
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const ms = Date.parse(text.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * A controllable clock: a base clock plus an offset, or frozen at a time. `advance` and `set` move it
 * (`POST /__mock/clock`); a frozen clock only moves when told to.
 *
 * @example
 * const clock = new Clock(Date.now, Date.parse('2026-01-01T00:00:00Z')); // frozen
 * clock.advance(60_000); // one minute later
 */
export class Clock {
  readonly #base: Now;
  #offset = 0;
  #frozenAt: number | undefined;
  readonly #onMove: (() => void) | undefined;

  /**
   * @param base the underlying clock (default `Date.now`).
   * @param frozenAt epoch ms to freeze at; omitted, the clock follows `base`.
   * @param onMove called after every {@link advance} and {@link set} (the gateway's `clock` event).
   */
  constructor(base: Now = systemNow, frozenAt?: number, onMove?: () => void) {
    this.#base = base;
    this.#frozenAt = frozenAt;
    this.#onMove = onMove;
  }

  /** The current time, epoch ms. */
  now(): number {
    return this.#frozenAt ?? this.#base() + this.#offset;
  }

  /** Whether the clock is frozen (moves only by {@link advance} and {@link set}). */
  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  /** Moves the clock forward by `ms` (may be 0; negative values are refused with a `RangeError`). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance_ms: expected a number of ms ≥ 0, got ${ms}`);
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
    this.#onMove?.();
  }

  /** Sets the clock to `ms` (epoch ms); a running clock keeps running from there. */
  set(ms: number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt = ms;
    else this.#offset = ms - this.#base();
    this.#onMove?.();
  }
}
