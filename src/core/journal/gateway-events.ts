/**
 * What happens in a gateway, as it happens: journal entries as requests arrive and as their bodies end, clock
 * moves, default scenario changes and resets. In-process users subscribe through `gateway.events`; the admin
 * API's `GET /__mock/events` (Server-Sent Events, `src/core/admin/event-stream.ts`) is built on the same subscription.
 *
 * @module
 */
import { isoWithOffset, type Clock } from '../base/clock.js';
import type { JournalEntry } from './journal.js';
import { consoleReporter, safeReporter, type ErrorReporter } from '../base/report-error.js';

/**
 * The clock, one shape wherever it is sent: the `clock` event's data, and the answer of `GET /__mock/clock` and
 * `POST /__mock/clock` (`src/core/admin/clock-routes.ts`).
 */
export interface ClockState {
  /** The time as ISO 8601 with an explicit offset, e.g. `2026-01-01T00:00:00.000+00:00`. */
  now: string;
  /** The same time, epoch ms. */
  now_ms: number;
  /** Whether the clock only moves when told to. */
  frozen: boolean;
}

/** The {@link ClockState} of `clock` now. */
export function clockStateOf(clock: Pick<Clock, 'now' | 'frozen'>): ClockState {
  const now = clock.now();
  return { now: isoWithOffset(now), now_ms: now, frozen: clock.frozen };
}

/**
 * One event. `id` counts the gateway's events from 1 (every subscriber sees the same id for the same event);
 * `data` is what the admin API's event stream sends as the event's JSON `data:`:
 *
 * - `entry`: a journal entry as recorded when the request arrived (status and headers known; for a streamed or
 *   delayed answer `duration_ms`, `response_bytes` and `body_end` still `null`);
 * - `entry-done`: the same entry once its body ended, with `duration_ms`, `response_bytes` and `body_end` (right
 *   after `entry` for an answer of one piece);
 * - `clock`: the clock after any move (`clock.advance`, `clock.set`, `POST /__mock/clock`);
 * - `scenario`: the default scenario's name after it changed (`useScenario`, `PUT /__mock/scenario`, a reset
 *   back to the initial one), `null` for none;
 * - `journal-cleared`: the journal was emptied (`journal.clear()`, `DELETE /__mock/requests`, and during a reset,
 *   before its `reset` event); data `{}`;
 * - `reset`: the gateway was reset (`gateway.reset()`, `POST /__mock/reset`); data `{}`.
 *
 * Entry data are copies made when the event is sent (the journal's own entry goes on changing).
 */
export type GatewayEvent =
  | { readonly id: number; readonly type: 'entry'; readonly data: JournalEntry }
  | { readonly id: number; readonly type: 'entry-done'; readonly data: JournalEntry }
  | { readonly id: number; readonly type: 'clock'; readonly data: ClockState }
  | { readonly id: number; readonly type: 'scenario'; readonly data: { default: string | null } }
  | { readonly id: number; readonly type: 'journal-cleared'; readonly data: Record<string, never> }
  | { readonly id: number; readonly type: 'reset'; readonly data: Record<string, never> };

/** The event types, as {@link GatewayEvent} names them. */
export type GatewayEventType = GatewayEvent['type'];

/** A subscriber: called synchronously, in order, for every event after it subscribed. */
export type GatewayEventListener = (event: GatewayEvent) => void;

/** What users see of a gateway's events (`gateway.events`). */
export interface GatewayEventSource {
  /**
   * Calls `listener` with every event from now on, synchronously as it happens (inside the request or call that
   * made it: keep it short). A listener that throws does not disturb the gateway, the request or other listeners;
   * its error is reported once to the gateway's `onError` (default: one `console.error` line), never rethrown.
   *
   * @returns the function that unsubscribes (idempotent).
   * @example
   * const stop = gateway.events.subscribe((event) => {
   *   if (event.type === 'entry-done') console.log(event.data.seq, event.data.body_end);
   * });
   */
  subscribe(listener: GatewayEventListener): () => void;
  /** How many listeners are subscribed (the admin API's event stream clients among them). */
  readonly listenerCount: number;
}

/** Where a gateway's own events go besides its listeners (a shared store's `publish`). */
export type EventForward = (event: Pick<GatewayEvent, 'type' | 'data'>) => void;

/** The data of each event type. */
type DataOf<T extends GatewayEventType> = Extract<GatewayEvent, { type: T }>['data'];

/** A gateway's events: {@link GatewayEventSource} plus `emit`, for the core. */
export class GatewayEvents implements GatewayEventSource {
  readonly #listeners = new Set<GatewayEventListener>();
  readonly #report: ErrorReporter;
  readonly #forward: EventForward | undefined;
  #id = 0;

  /**
   * @param report where a listener's error (or a failure to make an event's data) goes; default `console.error`.
   * @param forward also given every event emitted here (not those of {@link emitRemote}): a shared store's
   *   `publish`, so the other replicas' listeners see it.
   */
  constructor(report: ErrorReporter = consoleReporter, forward?: EventForward) {
    this.#report = safeReporter(report);
    this.#forward = forward;
  }

  subscribe(listener: GatewayEventListener): () => void {
    // A wrapper per subscription, so the same function subscribed twice is called twice and unsubscribes once.
    const call: GatewayEventListener = (event) => listener(event);
    this.#listeners.add(call);
    return () => void this.#listeners.delete(call);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /**
   * Sends an event of `type` to every listener. `data` is made only when someone listens (entries are copied
   * there). Never throws: a listener's error, or one of `data`, is reported (see {@link subscribe}).
   */
  emit<T extends GatewayEventType>(type: T, data: () => DataOf<T>): void {
    if (this.#forward) {
      let made: DataOf<T>;
      try {
        made = data();
      } catch (error) {
        this.#report(error, `event ${type}`);
        return;
      }
      this.#forward({ type, data: made } as Pick<GatewayEvent, 'type' | 'data'>);
      this.#send(type, () => made);
      return;
    }
    this.#send(type, data);
  }

  /** Sends an event another replica emitted (from a shared store) to this gateway's listeners, without forwarding it. */
  emitRemote(event: Pick<GatewayEvent, 'type' | 'data'>): void {
    this.#send(event.type, () => event.data as never);
  }

  #send<T extends GatewayEventType>(type: T, data: () => DataOf<T>): void {
    const id = ++this.#id;
    if (this.#listeners.size === 0) return;
    let event: GatewayEvent;
    try {
      event = Object.freeze({ id, type, data: data() }) as GatewayEvent;
    } catch (error) {
      this.#report(error, `event ${type}`);
      return;
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#report(error, `event listener (${type})`);
      }
    }
  }
}
