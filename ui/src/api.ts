/**
 * The admin API as the dashboard sees it: the JSON it answers (README, "The journal and the admin API") and one
 * `fetch` wrapper. Same-origin requests only; with an admin token the browser carries the login cookie, and a 401
 * anywhere switches the page to its login form ({@link onUnauthorized}).
 */

import type { AdminAuth } from '../../src/core/admin/admin-api.js';
import type { ErrorEnvelope } from '../../src/core/http/error-envelope.js';
import type { JournalEntry } from '../../src/core/journal/journal.js';

// The page is served by the server it is bundled with (dist/ui), so it shares the core's types of what it reads.
export type { AdminAuth, ErrorEnvelope, JournalEntry };

/** `GET /__mock/requests` */
export interface RequestsPage {
  requests: JournalEntry[];
  last_seq?: number;
}

/** One scenario of `GET /__mock/scenarios`. */
export interface ScenarioSummary {
  name: string;
  description: string | null;
  /** The number of rules (or the rules themselves, on a server that lists them). */
  rules: number | unknown[];
  source: string;
}

/** `GET /__mock/scenarios` */
export interface ScenarioList {
  default: string | null;
  scenarios: ScenarioSummary[];
}

/** `GET /__mock/scenarios/<name>` */
export interface ScenarioDetail {
  name: string;
  description: string | null;
  source: string;
  rules: Record<string, unknown>[];
}

/** The clock, from `GET /__mock/clock` (`now` ISO, `now_ms`) or the `clock` event (`now` ms, `now_iso`). */
export interface ClockWire {
  now: string | number;
  now_ms?: number;
  now_iso?: string;
  frozen: boolean;
}

/** The clock as the page keeps it. */
export interface ClockState {
  /** Epoch ms when read. */
  nowMs: number;
  frozen: boolean;
  /** `performance.now()` when read, to let a running clock tick on the page. */
  readAt: number;
}

/** Either shape of the clock's JSON as a {@link ClockState}. */
export function clockState(wire: ClockWire): ClockState {
  const nowMs = typeof wire.now === 'number' ? wire.now : (wire.now_ms ?? Date.parse(wire.now));
  return { nowMs, frozen: wire.frozen, readAt: performance.now() };
}

/** A non-2xx answer of the admin API, with the envelope's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const unauthorizedListeners = new Set<() => void>();

/** Calls `listener` when an admin API request answers 401; returns the unsubscribe function. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Tells the page that the admin API wants the token (a 401 seen elsewhere, e.g. by the event stream). */
export function reportUnauthorized(): void {
  for (const listener of unauthorizedListeners) listener();
}

/** Path of the admin API. */
export const ADMIN = '/__mock';

/**
 * A request to the admin API (`path` under `/__mock`); a JSON `body` is sent as JSON.
 *
 * @returns the JSON answer, or `undefined` for a 204.
 * @throws {ApiError} for any other status (a 401 also tells {@link onUnauthorized}'s listeners); a `TypeError`
 *   when the server cannot be reached.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(`${ADMIN}${path}`, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: init.body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: init.body === undefined ? null : JSON.stringify(init.body),
    signal: init.signal ?? null,
  });
  if (response.status === 401) reportUnauthorized();
  if (!response.ok) throw new ApiError(response.status, await errorMessage(response));
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** The message of an error answer: the envelope's `error.message`, else the status line. */
export async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as Partial<ErrorEnvelope>;
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON
  }
  return `${response.status} ${response.statusText}`.trim();
}
