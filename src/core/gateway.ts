/**
 * The simulated gateway: one request in, one response out, with no HTTP framework in between.
 *
 * Pipeline of {@link Gateway.handle}: route (404/405) → bearer auth (401) → session → scenario selection
 * (`X-Mock-Status`, `X-Mock-Scenario`, the default) → the first applicable rule, or the key's rate limit (429)
 * and the operation itself (which may also answer 429 for `:free` models and 402 for credits) →
 * `X-Mock-Applied` → journal.
 *
 * @module
 */
import { createAudioRenderer } from './audio/index.js';
import { Accounts, loadKeys, type Account, type KeysOption } from './accounts.js';
import { createCatalog } from './catalog/index.js';
import { Clock, isoWithOffset, parseIsoTime, systemNow, type Now } from './clock.js';
import type { GatewayContext } from './context.js';
import { GatewayError, errorResponse } from './errors.js';
import { loadFixtures, type Fixtures } from './fixtures/index.js';
import { createGenerationStore, DEFAULT_MAX_GENERATIONS } from './generations/store.js';
import { createIdSequence } from './ids.js';
import { DEFAULT_JOURNAL_SIZE, Journal, redactHeaders } from './journal.js';
import { getGeneration } from './operations/generation.js';
import { getModel, modelIdOf } from './operations/model.js';
import { createSpeech } from './operations/speech.js';
import { header, jsonBodyOrUndefined } from './request.js';
import { matchRoute, type RouteMatch } from './routes.js';
import { APPLIED_HEADER, SCENARIO_HEADER, SESSION_HEADER, STATUS_HEADER, ScenarioEngine, type AppliedRule, type RequestFacts } from './scenarios/engine.js';
import { delayOf, ruleResponse, withAudioEffects } from './scenarios/effects.js';
import { loadScenarioFile, loadScenarioRegistry } from './scenarios/load.js';
import type { Scenario, ScenarioDefinition } from './scenarios/schema.js';
import { sessionOf } from './session.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** Options shared by `createMockRouter` (in-process) and `startServer` (standalone). */
export interface GatewayOptions {
  /**
   * Seed of every generated value (generation ids, latencies, audio contour, scenario draws). Same seed and
   * same requests give byte-identical responses. Default `0`.
   */
  seed?: number;
  /**
   * The model catalog and known generation records: a folder holding `models.json` and `generations.json`
   * (the format of the package's own `fixtures/`), or the loaded {@link Fixtures}. Default: the package's
   * fixtures.
   */
  fixtures?: string | Fixtures;
  /**
   * The valid API keys: key strings, entries `{ key, credits?, user_id?, rate_limit? }` (credits in USD,
   * `rate_limit: { requests, interval_s }`), a `{ keys: [...] }` object, or the path of a JSON/YAML keys file.
   * Default: any non-empty bearer key is valid, with unlimited credit. When given, any other key gets
   * 401 `User not found.`, a speech call the balance cannot pay gets 402 (facts file, "Messages seen").
   */
  keys?: KeysOption;
  /**
   * The base clock, epoch ms. Default `Date.now` (which vitest's fake timers control). Record timestamps,
   * generation readiness, rate-limit windows and `Retry-After` all read it.
   */
  now?: Now;
  /** Freeze the clock at this time (ISO 8601 string or epoch ms); it then moves only by `clock.advance`/`set`. */
  clock?: string | number;
  /**
   * Delay before a speech call's generation record is readable, ms, or `'realistic'` (500–2000 ms, seeded per
   * record). Lookups before it answer 404 `Generation not found`, as the real gateway does. Default 0.
   */
  generationDelayMs?: number | 'realistic';
  /** How many speech-call generation records to keep (oldest evicted first). Default 10,000. */
  maxGenerations?: number;
  /** Bound of the audio cache, in bytes. Default 24 MiB. */
  audioCacheBytes?: number;
  /** Folders of extra scenario files (JSON or YAML), loaded beside the built-ins. */
  scenarios?: string | readonly string[];
  /**
   * The default scenario, applied to every request without a scenario header: a loaded scenario's name, a
   * path to a scenario file (containing `/` or ending `.json`, `.yaml`, `.yml`), or a definition.
   */
  scenario?: string | ScenarioDefinition;
  /** Bound of the request journal, in entries. Default 1000. */
  journalSize?: number;
}

/** A simulated gateway. */
export interface Gateway {
  /**
   * Answers one request. Never throws for any input: every failure is the gateway's error envelope
   * (an unexpected internal fault is a 500 envelope).
   */
  handle(request: CoreRequest): CoreResponse;
  /** The shared state (catalog, stores), for adapters and tests. */
  readonly context: GatewayContext;
  /** Scenario registry, default scenario and counters. */
  readonly scenarios: ScenarioEngine;
  /** Every API request answered, bounded. */
  readonly journal: Journal;
  /**
   * Sets the default scenario: a loaded name, a definition, or `null` for none. Restarts the counters.
   *
   * @throws {GatewayError} 400 for an unknown name (listing the loaded ones); {@link ScenarioError} for an
   *   invalid definition.
   */
  useScenario(nameOrDefinition: string | ScenarioDefinition | null): Scenario | null;
  /**
   * Clears scenario counters, the journal, rate-limit windows and spent credits, and returns to the initial
   * default scenario. Generation records and the clock are kept.
   */
  reset(): void;
}

function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || /\.(json|ya?ml)$/i.test(value);
}

function queryRecord(query: string): Record<string, string> {
  return query ? Object.fromEntries(new URLSearchParams(query)) : {};
}

/** Bodies larger than this are not kept in the journal, bytes. */
const JOURNAL_BODY_LIMIT = 64 * 1024;

/**
 * Creates a gateway simulator.
 *
 * @throws {FixtureError} when `fixtures` names a folder whose files are missing or invalid; {@link ScenarioError}
 *   for an invalid scenario file or folder; {@link KeysError} for an invalid keys file or list;
 *   {@link GatewayError} (400) for an unknown default scenario name, a bad `clock` or `generationDelayMs`.
 *   Every message names the file, the path inside it, and what was expected.
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  const seed = options.seed ?? 0;
  const fixtures = typeof options.fixtures === 'object' ? options.fixtures : loadFixtures(options.fixtures);
  let frozenAt: number | undefined;
  if (options.clock !== undefined) {
    frozenAt = typeof options.clock === 'number' ? options.clock : parseIsoTime(options.clock);
    if (frozenAt === undefined || !Number.isFinite(frozenAt)) {
      throw new GatewayError(400, { message: `clock: expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "${options.clock}"` });
    }
  }
  const delay = options.generationDelayMs ?? 0;
  if (delay !== 'realistic' && !(Number.isFinite(delay) && delay >= 0)) {
    throw new GatewayError(400, { message: `generationDelayMs: expected a number of ms ≥ 0 or "realistic", got ${String(delay)}` });
  }
  const clock = new Clock(options.now ?? systemNow, frozenAt);
  const context: GatewayContext = {
    catalog: createCatalog(fixtures),
    generations: createGenerationStore(fixtures.generations, options.maxGenerations ?? DEFAULT_MAX_GENERATIONS),
    audio: createAudioRenderer(options.audioCacheBytes === undefined ? {} : { maxCacheBytes: options.audioCacheBytes }),
    ids: createIdSequence(seed),
    seed,
    now: () => clock.now(),
    clock,
    accounts: new Accounts(options.keys === undefined ? undefined : loadKeys(options.keys)),
    generationDelay: delay,
    serial: 0,
  };
  const dirs = options.scenarios === undefined ? [] : typeof options.scenarios === 'string' ? [options.scenarios] : options.scenarios;
  // User folders are read now, so a bad file fails at start-up; the built-ins alone are read on first use.
  const registry = dirs.length > 0 ? loadScenarioRegistry(dirs) : () => loadScenarioRegistry([]);
  const scenarios = new ScenarioEngine(registry, seed);
  if (options.scenario !== undefined) {
    scenarios.setInitial(
      typeof options.scenario === 'string' && looksLikePath(options.scenario)
        ? loadScenarioFile(options.scenario).scenario
        : scenarios.resolve(options.scenario, 'scenario'),
    );
  }
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);

  function operate(request: CoreRequest, route: RouteMatch, account: Account): CoreResponse {
    context.accounts.consumeKeyLimit(account, context.now());
    switch (route.operation) {
      case 'speech':
        return createSpeech(context, request, account);
      case 'model':
        return getModel(context, route.author, route.slug);
      case 'generation':
        return getGeneration(context, request.query);
    }
  }

  function facts(request: CoreRequest, route: RouteMatch): RequestFacts {
    if (route.operation === 'model') return { operation: 'model', model: modelIdOf(route.author, route.slug) };
    return {
      operation: route.operation,
      speechBody: () => {
        const body = jsonBodyOrUndefined(request);
        return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
      },
    };
  }

  function answer(request: CoreRequest, route: RouteMatch, session: string, account: Account): { response: CoreResponse; applied?: AppliedRule } {
    const scenario = scenarios.select(header(request.headers, STATUS_HEADER), header(request.headers, SCENARIO_HEADER));
    const applied = scenario ? scenarios.apply(scenario, session, facts(request, route)) : undefined;
    if (!applied) return { response: operate(request, route, account) };
    let response = ruleResponse(applied, context.now(), session, account.userId);
    if (!response) {
      response = operate(request, route, account);
      if (response.status === 200) response.body = withAudioEffects(applied.rule, response.body);
    }
    response.delayMs = delayOf(applied.rule, applied.draw);
    response.headers[APPLIED_HEADER] = `${applied.scenario}/${applied.ruleName}`;
    return { response, applied };
  }

  function handle(request: CoreRequest): CoreResponse {
    const started = performance.now();
    const time = context.now();
    const sessionHeader = header(request.headers, SESSION_HEADER);
    let session = sessionOf(sessionHeader, 'anonymous');
    let route: RouteMatch | undefined;
    let response: CoreResponse;
    let applied: AppliedRule | undefined;
    try {
      route = matchRoute(request.path);
      if (!route) throw new GatewayError(404, { message: `No route for ${request.method} ${request.path}` });
      const method = request.method === 'HEAD' && route.method === 'GET' ? 'GET' : request.method;
      if (method !== route.method) {
        throw new GatewayError(405, {
          message: `Method ${request.method} is not allowed on ${request.path}; use ${route.method}`,
          headers: { Allow: route.method },
        });
      }
      const account = context.accounts.authenticate(request.headers);
      session = sessionOf(sessionHeader, account.key);
      ({ response, applied } = answer(request, route, session, account));
    } catch (error) {
      response =
        error instanceof GatewayError
          ? error.toResponse()
          : errorResponse(500, { metadata: { error_type: 'server', reason: (error as Error)?.message ?? String(error) } });
    }
    const body = request.body && request.body.byteLength <= JOURNAL_BODY_LIMIT ? (jsonBodyOrUndefined(request) ?? null) : request.body ? `<${request.body.byteLength} bytes, not kept>` : null;
    const entry = journal.record({
      time,
      time_iso: isoWithOffset(time),
      session,
      method: request.method,
      path: request.path,
      query: queryRecord(request.query),
      headers: redactHeaders(request.headers),
      body,
      operation: route?.operation ?? null,
      scenario: applied?.scenario ?? null,
      rule: applied?.ruleName ?? null,
      status: response.status,
      response_headers: response.headers,
      generation_id: response.headers['X-Generation-Id'] ?? null,
      duration_ms: null,
    });
    const streamed = response.body !== null && typeof response.body === 'object' && !(response.body instanceof Uint8Array);
    if (!streamed && !response.delayMs) entry.duration_ms = Math.round((performance.now() - started) * 1000) / 1000;
    else response.onDone = () => (entry.duration_ms = Math.round((performance.now() - started) * 1000) / 1000);
    return response;
  }

  return {
    context,
    scenarios,
    journal,
    handle,
    useScenario(nameOrDefinition) {
      const scenario = nameOrDefinition === null ? null : scenarios.resolve(nameOrDefinition, 'useScenario()');
      scenarios.useScenario(scenario);
      return scenario;
    },
    reset() {
      scenarios.reset();
      journal.clear();
      context.accounts.reset();
    },
  };
}
