/**
 * The admin API of the standalone server, under `/__mock/` (`docs/admin-api.md`). Framework-free
 * like the rest of the core; the server routes `/__mock/*` here (`withAdmin` in `src/server/admin.ts`, around the
 * API's front door). Admin requests are not journaled. Every request but the health check passes the guard first
 * (`guard.ts`: Host, Origin, admin token).
 *
 * | method and path | answer |
 * |---|---|
 * | `GET /__mock/health` | `{"status":"ok"}` |
 * | `GET /__mock/auth` | `{"authorized":bool,"token_required":bool}`: whether this request may use the admin API (200 also without the token, so the dashboard can show its login form without a 401) |
 * | `GET /__mock/requests?operation=&status=&session=` | `{"requests":[JournalEntry...],"last_seq":<n>}`, every kept entry |
 * | `GET /__mock/requests?after=<seq>&limit=<n>` (and the filters) | the same, only entries with `seq > after`, oldest first, at most `limit` (default 100, 1 to 1000) |
 * | `GET /__mock/requests?limit=<n>` (and the filters) | the newest `limit` entries, oldest first |
 * | `GET /__mock/requests/<seq>` | the entry; 404 `No journal entry <seq>` |
 * | `GET /__mock/requests/<seq>/audio` | a speech 200's audio rendered again (`audio/mpeg` or `audio/pcm;rate=24000;channels=1`); 404 otherwise |
 * | `DELETE /__mock/requests` | 204, journal cleared |
 * | `POST /__mock/reset` | 204, counters and journal cleared, initial default scenario back |
 * | `GET /__mock/scenarios` | `{"default":name|null,"scenarios":[{name,description,rules,source}]}` (`rules`: how many; a built-in's `source` is `scenarios/<file>`, relative to the package) |
 * | `GET /__mock/scenarios/<name>` | `{name,description,source,rules:[...]}`, the rules as loaded; 404 for an unknown name |
 * | `PUT /__mock/scenario` | body `{"name":"<loaded name>"}`, `{"scenario":<definition>}` or `{"name":null}`; 200 `{"default":...}` |
 * | `GET /__mock/clock` | `{"now":"<ISO>","now_ms":<epoch ms>,"frozen":bool}` |
 * | `POST /__mock/clock` | body `{"advance_ms":N}` (whole ms ≥ 0) or `{"now":"<ISO time>"}`; 200 with the clock as for GET; 400 for a move out of years 1970–9999 |
 * | `GET /__mock/events` | Server-Sent Events (`event-stream.ts`) |
 * | `POST /__mock/login` | form `token=<admin token>`: 303 to `/__mock/ui` with a login session's cookie (`guard.ts`) |
 *
 * @module
 */
import { clockState, moveClock } from './clock-routes.js';
import { entryAudio, journalEntry, listRequests } from './journal-routes.js';
import { eventStream } from './event-stream.js';
import { guardAdmin, login } from './guard.js';
import type { AdminSessions } from './login-sessions.js';
import { hostPolicyOf, type HostPolicy } from './hosts.js';
import { DEFAULT_CORS_POLICY, type CorsPolicy } from '../http/cors.js';
import { GatewayError, jsonResponse, toErrorResponse } from '../base/error-envelope.js';
import type { Gateway } from '../gateway/gateway.js';
import { readJsonBody } from '../http/request.js';
import { matchSegments } from '../http/routes.js';
import { problemLine, ScenarioError } from '../base/errors.js';

import { ADMIN_METHODS, SERVED_METHODS, methodNotAllowed } from '../http/malformed-requests.js';

import type { Scenario, ScenarioDefinition } from '../scenarios/schema.js';
import type { CoreRequest, CoreResponse, MaybePromise } from '../base/types.js';
import type { AdminAuth, DefaultScenario, HealthAnswer, ScenarioDetail, ScenarioList, SpeechModelDetail } from './wire.js';
import { modelIdOfPath } from '../operations/model.js';

export { MAX_PAGE_SIZE } from './journal-routes.js';

/** Path prefix of the admin API. */
export const ADMIN_PREFIX = '/__mock/';

const noContent: CoreResponse = { status: 204, headers: {}, body: null };

/**
 * `GET /__mock/scenarios/<name>`: a loaded scenario, or the default one when it was set by a definition (its
 * `source` is then `null`); a built-in's `source` is relative to the package (`scenarios/<name>.yaml`).
 */
function scenarioDetail(gateway: Gateway, _request: CoreRequest, params: RouteParams): CoreResponse {
  let name: string;
  try {
    name = decodeURIComponent(params.name ?? '');
  } catch {
    throw new GatewayError(400, { message: `name: not valid percent-encoding: "${params.name}"` });
  }
  const loaded = gateway.scenarios.scenarios.find(({ scenario }) => scenario.name === name);
  const fallback = gateway.scenarios.defaultScenario;
  const found = loaded ?? (fallback?.name === name ? { scenario: fallback, source: null } : undefined);
  if (!found) throw new GatewayError(404, { message: `No scenario "${name}"; loaded scenarios: ${gateway.scenarios.scenarios.map(({ scenario }) => scenario.name).sort().join(', ')}` });
  const { scenario, source } = found;
  return jsonResponse(200, { name: scenario.name, description: scenario.description ?? null, source, rules: scenario.rules } satisfies ScenarioDetail);
}

/** `GET /__mock/scenarios`: the default's name and each loaded scenario (a built-in's `source` relative to the package). */
function listScenarios(gateway: Gateway): CoreResponse {
  return jsonResponse(200, {
    default: gateway.scenarios.defaultScenario?.name ?? null,
    scenarios: gateway.scenarios.scenarios.map(({ scenario, source }) => ({
      name: scenario.name,
      description: scenario.description ?? null,
      rules: scenario.rules.length,
      source,
    })),
  } satisfies ScenarioList);
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
    // Every problem, as the CLI lists a file's (the first one alone is in `error.message`): in the message, one
    // after another, and in `metadata.problems`, one line each.
    if (error instanceof ScenarioError) {
      const problems = error.problems.map((problem) => problemLine(error.file, problem));
      throw new GatewayError(400, { message: problems.join('; '), metadata: { problems } });
    }
    throw error;
  }
  return jsonResponse(200, { default: chosen?.name ?? null } satisfies DefaultScenario);
}

/**
 * `GET /__mock/speech-models/{author}/{slug}`: what the speech model takes (voices, formats, speed), as
 * `GET /api/v1/audio/speech/models/{author}/{slug}` answers it but without a key, for the dashboard's detail of a
 * speech request.
 *
 * @returns 200 `{"data": SpeechModelResponse}`.
 * @throws {GatewayError} 404 for a model that does not exist or does not output speech; 400 for broken percent-encoding.
 */
function speechModelOfRoute(gateway: Gateway, _request: CoreRequest, params: RouteParams): CoreResponse {
  const id = modelIdOfPath(params);
  const data = gateway.speechModel(id);
  if (!data) throw new GatewayError(404, { message: `Speech model ${id} not found` });
  return jsonResponse(200, { data } satisfies SpeechModelDetail);
}

/** Options of {@link handleAdmin}: what its guard checks (`guard.ts`). */
export interface AdminOptions {
  /**
   * When set, every admin request but `GET /__mock/health` must carry it (`Authorization: Bearer <token>`,
   * `X-Mock-Admin-Token: <token>` or the login cookie `mockrouter_admin_<port>`); others get 401.
   */
  token?: string | undefined;
  /** The server's login sessions (`guard.ts`), made once per server; without it no login cookie is issued or accepted. */
  sessions?: AdminSessions | undefined;
  /** The `Host` values admin requests may carry (`hostPolicyOf`); default `localhost`, `127.0.0.1` and `[::1]`. */
  hosts?: HostPolicy | undefined;
  /** The CORS policy, whose named origins may also send state-changing admin requests; default {@link DEFAULT_CORS_POLICY}. */
  cors?: CorsPolicy | undefined;
}

/** Path parameters of an admin route (`{seq}`, `{name}`), raw. */
type RouteParams = Readonly<Record<string, string>>;
/** One admin route's action: its response, or a promise of it; fails (a throw or a rejection) with a `GatewayError` for its envelope. */
type AdminAction = (gateway: Gateway, request: CoreRequest, params: RouteParams, options: AdminOptions) => MaybePromise<CoreResponse>;

/**
 * `action` with the shared controls read before it (so it starts from every replica's latest clock and default
 * scenario) and its own changes stored before its answer (so the next request, on any replica, sees them):
 * `gateway.sync()` around it; nothing to wait for in memory.
 */
function synced(action: AdminAction): AdminAction {
  return async (gateway, request, params, options) => {
    await gateway.sync();
    const response = await action(gateway, request, params, options);
    await gateway.sync();
    return response;
  };
}

/** The admin API: path template under {@link ADMIN_PREFIX} (`{name}` is one non-empty segment) → method → action. */
const ADMIN_ROUTES: Readonly<Record<string, Readonly<Partial<Record<string, AdminAction>>>>> = {
  health: { GET: () => jsonResponse(200, { status: 'ok' } satisfies HealthAnswer) },
  auth: { GET: (_gateway, _request, _params, options) => jsonResponse(200, { authorized: true, token_required: options.token !== undefined } satisfies AdminAuth) },
  requests: {
    GET: listRequests,
    DELETE: async (gateway) => (await gateway.sharedJournal.clear(), noContent),
  },
  'requests/{seq}': { GET: journalEntry },
  'requests/{seq}/audio': { GET: entryAudio },
  // Not synced before: a reset starts from nothing it needs to read, and it mends shared controls the store holds in
  // a form no replica can read (which the read before would answer with their 500).
  reset: { POST: async (gateway) => (gateway.reset(), await gateway.sync(), noContent) },
  scenarios: { GET: synced(listScenarios) },
  'scenarios/{name}': { GET: synced(scenarioDetail) },
  scenario: { PUT: synced(setScenario) },
  clock: { GET: synced(clockState), POST: synced(moveClock) },
  events: { GET: (gateway) => eventStream(gateway.events) },
  'speech-models/{author}/{slug}': { GET: speechModelOfRoute },
  login: { POST: (_gateway, request, _params, options) => login(request, options.token, options.sessions) },
};

const TEMPLATES = Object.entries(ADMIN_ROUTES).map(([template, methods]) => ({ template, segments: template.split('/'), methods }));

/** The route of `path` (under the prefix, no trailing slash) and its parameters, or `undefined`. */
function matchAdminRoute(path: string): { methods: (typeof TEMPLATES)[number]['methods']; params: RouteParams } | undefined {
  const segments = path.split('/');
  for (const { segments: template, methods } of TEMPLATES) {
    const params = matchSegments(template, segments);
    if (params) return { methods, params };
  }
  return undefined;
}

/** Every admin route as `METHOD /__mock/path` (`{seq}`, `{name}` for parameters), for messages and the API index. */
export const ADMIN_ENDPOINTS: readonly string[] = Object.entries(ADMIN_ROUTES).flatMap(([path, methods]) =>
  Object.keys(methods).map((method) => `${method} ${ADMIN_PREFIX}${path}`),
);

/** Whether `path` (raw, no query) is the admin API's health check, which needs no token and survives `--no-admin`. */
export function isHealthPath(path: string): boolean {
  return path.replace(/\/$/, '') === `${ADMIN_PREFIX}health`;
}

/**
 * Answers one admin request: the guard first (`guardAdmin`: Host, Origin, token; not for the health check), then
 * the route.
 *
 * @returns a promise of the response: a 404 envelope for an unknown admin path (listing every admin endpoint), 405
 *   with `Allow` for a wrong method, 400 for bad input (an unknown scenario name lists the loaded ones; an invalid
 *   definition names the path inside it; a malformed `after`, `limit` or `seq` is named), 401 without the admin
 *   token when one is set (but `GET /__mock/auth`, which answers 200 `{"authorized":false}`), 403 for a Host or
 *   Origin the guard refuses, 303 for a `?token=` login. An action's unexpected fault (thrown or a rejection) is
 *   reported once to `gateway.reportError` and answered with the 500 envelope; the promise rejects only when the
 *   guard itself fails.
 */
export async function handleAdmin(gateway: Gateway, request: CoreRequest, options: AdminOptions = {}): Promise<CoreResponse> {
  const path = request.path.slice(ADMIN_PREFIX.length).replace(/\/$/, '');
  if (path !== 'health') {
    const refused = guardAdmin(request, { token: options.token, sessions: options.sessions, hosts: options.hosts ?? LOCAL_HOSTS, cors: options.cors ?? DEFAULT_CORS_POLICY });
    // The dashboard asks whether it may go on before anything else, so a browser logs no 401 before the login form.
    if (path === 'auth' && request.method === 'GET' && refused?.status === 401) return jsonResponse(200, { authorized: false, token_required: true } satisfies AdminAuth);
    if (refused) return refused;
  }
  try {
    const route = matchAdminRoute(path);
    if (!route) {
      if (!SERVED_METHODS.has(request.method)) throw methodNotAllowed(request.method, request.path, ADMIN_METHODS);
      throw new GatewayError(404, { message: `No admin route ${request.method} ${request.path}; the admin API: ${ADMIN_ENDPOINTS.join(', ')}` });
    }
    const run = route.methods[request.method];
    if (!run) throw methodNotAllowed(request.method, request.path, Object.keys(route.methods).join(', '));
    return await run(gateway, request, route.params, options);
  } catch (error) {
    if (!(error instanceof GatewayError)) gateway.reportError(error, `admin ${request.method} ${request.path}`);
    return toErrorResponse(error);
  }
}

/** The default host policy: `localhost` (and `*.localhost`), `127.0.0.1`, `[::1]`. */
const LOCAL_HOSTS: HostPolicy = hostPolicyOf(undefined);
