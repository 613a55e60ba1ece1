/**
 * The simulator's clock: the one source of time for record timestamps, generation readiness, rate-limit
 * windows, `Retry-After` and `X-RateLimit-Reset`.
 *
 * @module
 */

/** The clock as a shared store keeps it: frozen at `frozenAtMs`, or each replica's real clock plus `offsetMs`. */
export interface ClockSetting {
  /** Added to the real clock while running, ms. */
  readonly offsetMs: number;
  /** Epoch ms the clock is frozen at, or `null` while it runs. */
  readonly frozenAtMs: number | null;
}

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

/** The earliest time the clock may show: 1970-01-01T00:00:00.000Z, epoch ms. */
export const CLOCK_MIN_MS = 0;

/** The latest time the clock may show: 9999-12-31T23:59:59.999Z, epoch ms (the last one ISO 8601's four-digit year writes). */
export const CLOCK_MAX_MS = 253_402_300_799_999;

/**
 * Why the clock may not show `ms`, or `undefined` when it may: a time is whole epoch milliseconds from
 * {@link CLOCK_MIN_MS} to {@link CLOCK_MAX_MS}, so that generation ids (`gen-tts-<unix seconds>-…`), ISO times and
 * `X-RateLimit-Reset` stay well-formed (a simulator choice).
 *
 * @param shown how the value is named in the problem, when not `ms` itself (the ISO text given).
 * @returns e.g. `expected a time within years 1970–9999 (whole epoch ms from 0 to 253402300799999), got -1000`.
 */
export function clockTimeProblem(ms: number, shown: string = String(ms)): string | undefined {
  if (Number.isSafeInteger(ms) && ms >= CLOCK_MIN_MS && ms <= CLOCK_MAX_MS) return undefined;
  return `expected a time within years 1970–9999 (whole epoch ms from ${CLOCK_MIN_MS} to ${CLOCK_MAX_MS}), got ${shown}`;
}

/** The farthest the clock at `now` may move forward, ms: to {@link CLOCK_MAX_MS} (0 when it is there or past it). */
export function mostAdvanceMs(now: number): number {
  return Math.max(0, Math.floor(CLOCK_MAX_MS - now));
}

/**
 * Why the clock at `now` may not move forward by `ms`, or `undefined` when it may: `ms` is a whole number ≥ 0 and
 * `now + ms` stays at or before {@link CLOCK_MAX_MS}.
 *
 * @returns e.g. `expected a whole number of ms from 0 to 251635075199999 (the clock stays within years 1970–9999),
 *   got 0.5`.
 */
export function advanceProblem(now: number, ms: number): string | undefined {
  const most = mostAdvanceMs(now);
  if (Number.isSafeInteger(ms) && ms >= 0 && ms <= most) return undefined;
  return `expected a whole number of ms from 0 to ${most} (the clock stays within years 1970–9999), got ${String(ms)}`;
}

/**
 * Why `value` (a clock setting read back from a shared store, `store/types.ts`) is not one this clock may take, or
 * `undefined` when it is: an object with `offsetMs`, a number of ms from -{@link CLOCK_MAX_MS} to
 * {@link CLOCK_MAX_MS} (beyond, no real clock plus the offset is within years 1970–9999, and past about ±8.64e15
 * JavaScript cannot write the time at all: `Invalid time value`), and `frozenAtMs`, `null` or a time
 * {@link clockTimeProblem} accepts.
 *
 * @returns e.g. `offsetMs: expected a number of ms from -253402300799999 to 253402300799999, got 1e+300`.
 */
export function clockSettingProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `expected {"offsetMs": <ms>, "frozenAtMs": <epoch ms> | null}, got ${shownValue(value)}`;
  const { offsetMs, frozenAtMs } = value as Partial<Record<keyof ClockSetting, unknown>>;
  if (typeof offsetMs !== 'number' || !(Math.abs(offsetMs) <= CLOCK_MAX_MS)) {
    return `offsetMs: expected a number of ms from -${CLOCK_MAX_MS} to ${CLOCK_MAX_MS}, got ${shownValue(offsetMs)}`;
  }
  if (frozenAtMs === null) return undefined;
  if (typeof frozenAtMs !== 'number') return `frozenAtMs: expected null or a time within years 1970–9999 (whole epoch ms from ${CLOCK_MIN_MS} to ${CLOCK_MAX_MS}), got ${shownValue(frozenAtMs)}`;
  const problem = clockTimeProblem(frozenAtMs);
  return problem && `frozenAtMs: ${problem}`;
}

/** A value as a message shows it: numbers as JavaScript writes them (`1e+300`), others as JSON. */
function shownValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * A controllable clock: a base clock plus an offset, or frozen at a time. `advance` and `set` move it
 * (`POST /__mock/clock`); a frozen clock only moves when told to. Every move keeps it at whole milliseconds within
 * years 1970–9999 ({@link CLOCK_MIN_MS} to {@link CLOCK_MAX_MS}); a move that would leave them is refused and the
 * clock stays where it was.
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
   * @throws {RangeError} `clock: <problem>` when `frozenAt` is not whole ms within years 1970–9999.
   */
  constructor(base: Now = systemNow, frozenAt?: number, onMove?: () => void) {
    const problem = frozenAt === undefined ? undefined : clockTimeProblem(frozenAt);
    if (problem) throw new RangeError(`clock: ${problem}`);
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

  /**
   * Moves the clock forward by `ms`: a whole number ≥ 0 (0 is allowed) that keeps it at or before
   * 9999-12-31T23:59:59.999Z.
   *
   * @throws {RangeError} `advance_ms: <problem>` ({@link advanceProblem}); the clock does not move.
   */
  advance(ms: number): void {
    const problem = advanceProblem(this.now(), ms);
    if (problem) throw new RangeError(`advance_ms: ${problem}`);
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
    this.#onMove?.();
  }

  /**
   * Sets the clock to `ms` (epoch ms, whole, within years 1970–9999); a running clock keeps running from there.
   *
   * @throws {RangeError} `now: <problem>` ({@link clockTimeProblem}); the clock does not move.
   */
  set(ms: number): void {
    const problem = clockTimeProblem(ms);
    if (problem) throw new RangeError(`now: ${problem}`);
    if (this.#frozenAt !== undefined) this.#frozenAt = ms;
    else this.#offset = ms - this.#base();
    this.#onMove?.();
  }

  /** The clock as a shared store keeps it (`store/types.ts`): frozen at a time, or the base clock plus an offset. */
  setting(): ClockSetting {
    return { offsetMs: this.#offset, frozenAtMs: this.#frozenAt ?? null };
  }

  /**
   * Takes `setting` (another replica's move, read from a shared store), without calling `onMove`: the replica
   * that moved the clock already announced it. A setting {@link clockSettingProblem} refuses is ignored (the store
   * checks what it reads first: `store/shared-control.ts`).
   */
  adopt(setting: ClockSetting): void {
    if (clockSettingProblem(setting)) return;
    this.#offset = setting.offsetMs;
    this.#frozenAt = setting.frozenAtMs ?? undefined;
  }
}
