/**
 * The JSON the admin API sends (`/__mock/*`, `admin-api.ts`), as types: what its routes build and what the
 * dashboard (`ui/src/api.ts`) reads, defined once here. Types only: nothing here runs, so the dashboard's bundle
 * takes nothing from the core but these names.
 *
 * @module
 */
import type { SpeechModelResponse } from '../catalog/speech-models.js';
import type { ErrorEnvelope } from '../base/error-envelope.js';
import type { ClockState, GatewayEvent, GatewayEventType } from '../journal/gateway-events.js';
import type { JournalEntry } from '../journal/journal.js';
import type { Rule } from '../scenarios/schema.js';

/**
 * A journal entry as served (`GET /__mock/requests`, `GET /__mock/requests/<seq>`, the `entry` and `entry-done`
 * events): the journal's own {@link JournalEntry}, every field JSON already.
 */
export type { JournalEntry };

/** The clock (`GET /__mock/clock`, the answer of `POST /__mock/clock`, the `clock` event): `{now: ISO, now_ms, frozen}`. */
export type { ClockState };

/** An error answer of any status: the gateway's envelope `{error: {code, message, metadata?}}` (`error-envelope.ts`). */
export type { ErrorEnvelope };
export type { SpeechModelResponse };

/** `GET /__mock/health`: the readiness probe, served even under `--no-admin` and without the admin token. */
export interface HealthAnswer {
  status: 'ok';
}

/**
 * `GET /__mock/auth`: whether the request may use the admin API (`authorized`: the guard lets it through) and
 * whether the server wants the admin token (`--admin-token`). Answered 200 either way, so a page can choose between
 * itself and its login form without a 401 in the browser's console.
 */
export interface AdminAuth {
  authorized: boolean;
  token_required: boolean;
}

/** `GET /__mock/requests` (every form: all, `after`/`limit` pages, the newest `limit`). */
export interface RequestsPage {
  /** The entries, oldest first. */
  requests: JournalEntry[];
  /** The journal's last sequence number (0 before any request), the cursor for `after=`. */
  last_seq: number;
}

/** One scenario of `GET /__mock/scenarios`. */
export interface ScenarioSummary {
  name: string;
  description: string | null;
  /** How many rules it has. */
  rules: number;
  /** Where it was loaded from: its file (`scenarios/<name>.yaml` for a built-in, relative to the package) or option. */
  source: string;
}

/** `GET /__mock/scenarios`: the default scenario's name (`null` for none) and every loaded scenario. */
export interface ScenarioList {
  default: string | null;
  scenarios: ScenarioSummary[];
}

/** `GET /__mock/scenarios/<name>`: one scenario with its rules as loaded. */
export interface ScenarioDetail {
  name: string;
  description: string | null;
  /** As in {@link ScenarioSummary}; `null` for a default scenario set by a definition (`PUT /__mock/scenario`). */
  source: string | null;
  rules: Rule[];
}

/** `GET /__mock/speech-models/<author>/<slug>`: what a speech model takes (`src/core/catalog/speech-models.ts`). */
export interface SpeechModelDetail {
  data: SpeechModelResponse;
}

/**
 * The data of each event of `GET /__mock/events` (`event-stream.ts`), by its `event:` name: the gateway's events
 * ({@link GatewayEvent}, whose docs say when each is sent), and `overflow`, the stream's last event for a client
 * that fell too far behind.
 */
export type EventData = { [T in GatewayEventType]: Extract<GatewayEvent, { type: T }>['data'] } & {
  overflow: { max_queued_events: number };
};

/** The answer of `PUT /__mock/scenario`, and the `scenario` event's data: the default scenario's name, `null` for none. */
export type DefaultScenario = EventData['scenario'];
