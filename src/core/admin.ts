/**
 * The admin API of the standalone server, under `/__mock/` (README, "The journal and the admin API"). Framework-free like the
 * rest of the core; the server routes `/__mock/*` here. Admin requests are not journaled.
 *
 * | method and path | answer |
 * |---|---|
 * | `GET /__mock/health` | `{"status":"ok"}` |
 * | `GET /__mock/requests?operation=&status=&session=` | `{"requests":[JournalEntry...]}` |
 * | `DELETE /__mock/requests` | 204, journal cleared |
 * | `POST /__mock/reset` | 204, counters and journal cleared, initial default scenario back |
 * | `GET /__mock/scenarios` | `{"default":name|null,"scenarios":[{name,description,rules,source}]}` |
 * | `PUT /__mock/scenario` | body `{"name":"<loaded name>"}`, `{"scenario":<definition>}` or `{"name":null}`; 200 `{"default":...}` |
 * | `GET /__mock/clock` | `{"now":"<ISO>","now_ms":<epoch ms>,"frozen":bool}` |
 * | `POST /__mock/clock` | body `{"advance_ms":N}` or `{"now":"<ISO time>"}`; 200 with the clock as for GET |
 *
 * @module
 */
import { bearerKey } from './auth.js';
import * as z from 'zod';
import { isoWithOffset, parseIsoTime } from './clock.js';
import { GatewayError, errorResponse, toErrorResponse } from './errors.js';
import type { Gateway } from './gateway.js';
import type { JournalFilter } from './journal.js';
import { header, queryParams, readJsonBody } from './request.js';
import { OPERATIONS, type Operation } from './routes.js';
import { ScenarioError } from './scenarios/parse.js';
import type { Scenario, ScenarioDefinition } from './scenarios/schema.js';
import type { CoreRequest, CoreResponse } from './types.js';
import { parseOrThrow } from './validation.js';

/** Path prefix of the admin API. */
export const ADMIN_PREFIX = '/__mock/';

function json(status: number, value: unknown): CoreResponse {
  return { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) };
}

const noContent: CoreResponse = { status: 204, headers: {}, body: null };

function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}

function journalFilter(query: string): JournalFilter {
  const params = queryParams(query);
  const filter: JournalFilter = {};
  const operation = params.get('operation');
  if (operation !== null) {
    if (operation === 'none') filter.operation = null;
    else if (isOperation(operation)) filter.operation = operation;
    else throw new GatewayError(400, { message: `operation: expected ${OPERATIONS.join(', ')} or none, got "${operation}"` });
  }
  const status = params.get('status');
  if (status !== null) {
    if (!/^\d{1,3}$/.test(status)) throw new GatewayError(400, { message: `status: expected an HTTP status code, got "${status}"` });
    filter.status = Number(status);
  }
  const session = params.get('session');
  if (session !== null) filter.session = session;
  return filter;
}

function setScenario(gateway: Gateway, request: CoreRequest): CoreResponse {
  const body = readJsonBody(request);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError(400, { message: 'body: expected {"name": "<scenario>"}, {"scenario": {...}} or {"name": null}' });
  }
  const { name, scenario } = body as { name?: unknown; scenario?: unknown };
  let chosen: Scenario | null;
  try {
    // A definition is validated by useScenario (its type is what it checks, not what it trusts).
    if (scenario !== undefined) chosen = gateway.useScenario(scenario as ScenarioDefinition, 'scenario');
    else if (name === null) chosen = gateway.useScenario(null);
    else if (typeof name === 'string') chosen = gateway.useScenario(name, 'name');
    else throw new GatewayError(400, { message: 'name: expected a scenario name or null (or give "scenario": a definition)' });
  } catch (error) {
    if (error instanceof ScenarioError) throw new GatewayError(400, { message: error.message });
    throw error;
  }
  return json(200, { default: chosen?.name ?? null });
}

function clockState(gateway: Gateway): CoreResponse {
  const now = gateway.clock.now();
  return json(200, { now: isoWithOffset(now), now_ms: now, frozen: gateway.clock.frozen });
}

/** Body of `POST /__mock/clock`: exactly one of `advance_ms` and `now`. */
const ClockBodySchema = z
  .strictObject({
    advance_ms: z
      .number({ error: (i) => `expected a number of ms ≥ 0, got ${JSON.stringify(i.input)}` })
      .refine((n) => Number.isFinite(n) && n >= 0, { error: (i) => `expected a number of ms ≥ 0, got ${JSON.stringify(i.input)}` })
      .optional(),
    now: z
      .string({ error: (i) => `must be an ISO 8601 time string, got ${JSON.stringify(i.input)}` })
      .refine((value) => parseIsoTime(value) !== undefined, { error: (i) => `expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got ${JSON.stringify(i.input)}` })
      .optional(),
  }, { error: 'must be a JSON object: {"advance_ms": <ms ≥ 0>} or {"now": "<ISO 8601 time>"}' })
  .refine((b) => (b.advance_ms === undefined) !== (b.now === undefined), {
    error: 'expected {"advance_ms": <ms ≥ 0>} or {"now": "<ISO 8601 time>"}',
  });

function moveClock(gateway: Gateway, request: CoreRequest): CoreResponse {
  const body = parseOrThrow(ClockBodySchema, readJsonBody(request));
  const clock = gateway.clock;
  if (body.advance_ms !== undefined) clock.advance(body.advance_ms);
  else clock.set(parseIsoTime(body.now!)!);
  return clockState(gateway);
}

/**
 * How much of the admin API is served: `on` (all of it), `health` (only `GET /__mock/health`, the readiness probe
 * the standalone server keeps under `--no-admin`), `off` (none: in-process, where the gateway object is the admin
 * interface).
 */
export type AdminExposure = 'on' | 'health' | 'off';

/** Options of {@link handleAdmin}. */
export interface AdminOptions {
  /**
   * When set, every admin request but `GET /__mock/health` must carry `Authorization: Bearer <token>` or
   * `X-Mock-Admin-Token: <token>`; others get 401.
   */
  token?: string | undefined;
}

const utf8 = new TextEncoder();

/**
 * Whether `given` equals `expected`, in a time that depends only on their lengths (no early exit on the first
 * differing byte, as `crypto.timingSafeEqual`, which browsers lack).
 */
function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = utf8.encode(given);
  const b = utf8.encode(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

type AdminAction = (gateway: Gateway, request: CoreRequest) => CoreResponse;

/** The admin API: path under {@link ADMIN_PREFIX} → method → action. */
const ADMIN_ROUTES: Readonly<Record<string, Readonly<Partial<Record<string, AdminAction>>>>> = {
  health: { GET: () => json(200, { status: 'ok' }) },
  requests: {
    GET: (gateway, request) => json(200, { requests: gateway.journal.list(journalFilter(request.query)) }),
    DELETE: (gateway) => (gateway.journal.clear(), noContent),
  },
  reset: { POST: (gateway) => (gateway.reset(), noContent) },
  scenarios: {
    GET: (gateway) =>
      json(200, {
        default: gateway.scenarios.defaultScenario?.name ?? null,
        scenarios: gateway.scenarios.scenarios.map(({ scenario, source }) => ({
          name: scenario.name,
          description: scenario.description ?? null,
          rules: scenario.rules.length,
          source,
        })),
      }),
  },
  scenario: { PUT: setScenario },
  clock: { GET: clockState, POST: moveClock },
};

/** Every admin route as `METHOD /__mock/path`, for messages and the API index. */
export const ADMIN_ENDPOINTS: readonly string[] = Object.entries(ADMIN_ROUTES).flatMap(([path, methods]) =>
  Object.keys(methods).map((method) => `${method} ${ADMIN_PREFIX}${path}`),
);

/** Whether `path` (raw, no query) is the admin API's health check, which needs no token and survives `--no-admin`. */
export function isHealthPath(path: string): boolean {
  return path.replace(/\/$/, '') === `${ADMIN_PREFIX}health`;
}

/**
 * Answers one admin request.
 *
 * @returns the response; a 404 envelope for an unknown admin path (listing every admin endpoint), 405 with
 *   `Allow` for a wrong method, 400 for bad input (an unknown scenario name lists the loaded ones; an invalid
 *   definition names the path inside it), 401 without the admin token when one is set.
 */
export function handleAdmin(gateway: Gateway, request: CoreRequest, options: AdminOptions = {}): CoreResponse {
  const path = request.path.slice(ADMIN_PREFIX.length).replace(/\/$/, '');
  if (options.token !== undefined && path !== 'health') {
    const given = header(request.headers, 'x-mock-admin-token') ?? bearerKey(request.headers);
    if (!tokenMatches(given, options.token)) {
      return errorResponse(401, { message: 'Admin API: missing or wrong admin token (send Authorization: Bearer <token> or X-Mock-Admin-Token)' });
    }
  }
  try {
    const methods = Object.hasOwn(ADMIN_ROUTES, path) ? ADMIN_ROUTES[path] : undefined;
    if (!methods) throw new GatewayError(404, { message: `No admin route ${request.method} ${request.path}; the admin API: ${ADMIN_ENDPOINTS.join(', ')}` });
    const run = methods[request.method];
    if (!run) {
      const allow = Object.keys(methods).join(', ');
      throw new GatewayError(405, { message: `Method ${request.method} is not allowed on ${request.path}; use ${allow}`, headers: { Allow: allow } });
    }
    return run(gateway, request);
  } catch (error) {
    return toErrorResponse(error);
  }
}
