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
import { createGateway } from './node-platform/create-gateway.js';
import { attachToServer, type MswServerEvents } from './msw/attach.js';
import { assertMswCompatible, assertMswInstalled, requireMsw } from './msw/compat.js';
import { provideMswHttp } from './msw/msw-http.js';
import { mockRouterOf, type MockRouterBase, type MockRouterOptions } from './msw/mock-router.js';

/** A mock gateway for in-process use in Node.js (see {@link MockRouterBase} for its members). */
export interface MockRouter extends MockRouterBase {
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
 * @throws an error of `src/core/base/errors.ts` (every entry exports them all), each naming the option or the file,
 *   the path inside it and what was expected: `OptionsError`, `FixtureError`, `ScenarioError`, `KeysError`;
 *   `MswCompatibilityError` when the installed msw cannot run on this Node.js (msw 3 before 22.12).
 */
export function createMockRouter(options: MockRouterOptions = {}): MockRouter {
  assertMswCompatible();
  provideMswHttp(requireMsw().http);
  return { ...mockRouterOf(createGateway(options), options), attach: attachToServer };
}

export { createGateway, type Gateway, type GatewayOptions, type Options } from './node-platform/create-gateway.js';
export type { CorsOption } from './core/gateway/options.js';
export type { MockRouterBase, MockRouterOptions } from './msw/mock-router.js';
export { errorEnvelope, STATUS_DEFAULTS, type ErrorEnvelope, type ErrorType } from './core/base/error-envelope.js';
export type { CoreRequest, CoreResponse, CoreBody } from './core/base/types.js';
export { Journal, type JournalEntry, type JournalFilter, type JournalError, type BodyEnd, type SpeechAudio, type WordsFacts } from './core/journal/journal.js';
export type { GatewayEvent, GatewayEventListener, GatewayEventSource, GatewayEventType, ClockState } from './core/journal/gateway-events.js';
export * from './core/base/errors.js';

export type { Clock } from './core/base/clock.js';
export type { Scenario, ScenarioDefinition, Rule } from './core/scenarios/schema.js';
export { OPENROUTER_BASE_URL } from './msw/handlers.js';
export { attachToServer, type MswServerEvents } from './msw/attach.js';
export { errorOnUnhandled } from './msw/compat.js';

// Without msw, importing this entry fails here, with one error that says how to install it.
assertMswInstalled();
