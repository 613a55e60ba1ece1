/**
 * mockrouter: a local simulator of the OpenRouter API for tests.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockRouter } from 'mockrouter';
 *
 * const mock = createMockRouter({ seed: 42 });
 * const server = mock.attach(setupServer(...mock.handlers));
 * server.listen();
 * // fetch('https://openrouter.ai/api/v1/model/openai/gpt-4o-mini', { headers: { Authorization: 'Bearer sk-test' } })
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import { createGateway, type Gateway, type GatewayOptions } from './core/gateway.js';
import { attachToServer, type MswServerEvents } from './msw/attach.js';
import { assertMswCompatible } from './msw/compat.js';
import { createHandlers } from './msw/handlers.js';
import type { Journal } from './core/journal.js';
import type { ScenarioDefinition } from './core/scenarios/schema.js';

/** Options of {@link createMockRouter}; see {@link GatewayOptions} for each. */
export type MockRouterOptions = GatewayOptions;

/** A mock gateway for in-process use. */
export interface MockRouter {
  /** MSW handlers for `setupServer(...handlers)` (msw/node) or `@mswjs/http-middleware`. */
  readonly handlers: HttpHandler[];
  /** The core simulator behind the handlers (shared with nothing else). */
  readonly gateway: Gateway;
  /**
   * Every request the handlers answered, oldest first (bounded by `journalSize`); filter with
   * `journal.list({ operation, status, session })`. Authorization values are redacted.
   */
  readonly journal: Journal;
  /**
   * Sets the default scenario for every request without `X-Mock-Scenario`/`X-Mock-Status`: a loaded name
   * (built-in or from `scenarios`), a definition, or `null` for none. Restarts the scenario counters.
   *
   * @throws {GatewayError} (400) for an unknown name, listing the loaded ones; {@link ScenarioError} for an
   *   invalid definition, naming the path inside it.
   * @example mock.useScenario('rate-limited-then-ok');
   */
  useScenario(nameOrDefinition: string | ScenarioDefinition | null): void;
  /** Clears scenario counters and the journal and returns to the initial default scenario (`afterEach`). */
  reset(): void;
  /**
   * Prepares an msw server for clients that cancel response bodies: under msw 2, the `openai` SDK hangs on its
   * first retry of a 429 or 5xx without it (mswjs/interceptors#799; see {@link attachToServer}). Harmless under
   * msw 3.
   *
   * @returns `server`.
   * @example const server = mock.attach(setupServer(...mock.handlers));
   */
  attach<S extends MswServerEvents>(server: S): S;
}

/**
 * Creates an in-process mock gateway.
 *
 * @throws {FixtureError} when `options.fixtures` names a folder with missing or invalid files;
 *   {@link ScenarioError} for invalid scenario files; {@link KeysError} for an invalid keys file or list;
 *   {@link OptionsError} for an unknown `scenario` name or a bad `clock` or `generationDelayMs`;
 *   `MswCompatibilityError` (src/msw/compat.ts) when the installed msw cannot run on this Node.js (msw 3 before 22.12).
 */
export function createMockRouter(options: MockRouterOptions = {}): MockRouter {
  assertMswCompatible();
  const gateway = createGateway(options);
  return {
    handlers: createHandlers(gateway),
    gateway,
    journal: gateway.journal,
    useScenario: (nameOrDefinition) => void gateway.useScenario(nameOrDefinition),
    reset: () => gateway.reset(),
    attach: attachToServer,
  };
}

export { createGateway, type Gateway, type GatewayOptions } from './core/gateway.js';
export { GatewayError, errorEnvelope, STATUS_DEFAULTS, type ErrorEnvelope, type ErrorType } from './core/errors.js';
export type { CoreRequest, CoreResponse, CoreBody } from './core/types.js';
export { Journal, type JournalEntry, type JournalFilter } from './core/journal.js';
export { ScenarioError } from './core/scenarios/load.js';
export { FixtureError } from './core/fixtures/load.js';
export { ConfigFileError } from './core/config-file.js';
export { KeysError } from './core/accounts.js';
export { OptionsError } from './core/options.js';
export type { Clock } from './core/clock.js';
export type { Scenario, ScenarioDefinition, Rule } from './core/scenarios/schema.js';
export { OPENROUTER_BASE_URL } from './msw/handlers.js';
export { attachToServer, type MswServerEvents } from './msw/attach.js';
export { errorOnUnhandled, MswCompatibilityError } from './msw/compat.js';
