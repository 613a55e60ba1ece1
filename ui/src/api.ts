/**
 * The admin API as the dashboard sees it: the JSON it answers (docs/admin-api.md, "Admin endpoints") and one
 * `fetch` wrapper. Same-origin requests only; with an admin token the browser carries the login cookie, and a 401
 * anywhere switches the page to its login form ({@link onUnauthorized}).
 */

import type { AdminAuth, ClockState, DefaultScenario, ErrorEnvelope, JournalEntry, RequestsPage, ScenarioDetail, ScenarioList, ScenarioSummary, SpeechModelDetail } from '../../src/core/admin/wire.js';

// The page is served by the server it is bundled with (dist/ui), so it reads the core's own types of the admin
// API's answers (type-only: nothing of the core is bundled).
export type { AdminAuth, ClockState, DefaultScenario, ErrorEnvelope, JournalEntry, RequestsPage, ScenarioDetail, ScenarioList, ScenarioSummary, SpeechModelDetail };

/** The clock as the page keeps it. */
export interface PageClock {
  /** Epoch ms when read. */
  nowMs: number;
  frozen: boolean;
  /** `performance.now()` when read, to let a running clock tick on the page. */
  readAt: number;
}

/** The clock's JSON (`GET`/`POST /__mock/clock`, the `clock` event) as a {@link PageClock}, read now. */
export function pageClock(state: ClockState): PageClock {
  return { nowMs: state.now_ms, frozen: state.frozen, readAt: performance.now() };
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
