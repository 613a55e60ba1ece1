/**
 * mockrouter in the browser: the same simulator and MSW handlers as in Node.js, for `setupWorker` from
 * `msw/browser` (a dev server, Storybook, component tests). The package's fixtures and built-in scenarios are
 * bundled as data; nothing here imports a `node:` module or uses a Node.js global.
 *
 * Options that name files or folders (a fixtures folder, a keys file, scenario folders or files) are Node.js-only:
 * {@link BrowserMockRouterOptions} takes the data itself instead (loaded fixtures, a key list, scenario definitions).
 *
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { createMockRouter } from 'mockrouter/browser';
 *
 * const mock = createMockRouter({ seed: 42 });
 * await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 * // fetch('https://openrouter.ai/api/v1/models?output_modalities=speech', { headers: { Authorization: 'Bearer sk-test' } })
 *
 * @module
 */
import { http } from 'msw';
import type { GatewayOptions } from '../core/gateway/options.js';
import { createGatewayOn, type Gateway } from '../core/gateway/gateway.js';
import { mockRouterOf, type MockRouterBase, type MockRouterOptions } from '../msw/mock-router.js';
import { provideMswHttp } from '../msw/msw-http.js';
import { browserPlatform } from './platform.js';

/**
 * Options of {@link createMockRouter} in browsers: Node.js's (`MockRouterOptions`, documented at `Options` in
 * `src/core/gateway/options.ts`) without the forms that name files: `fixtures` takes loaded fixtures, `keys` a key
 * list, `scenarios` definitions, `scenario` a loaded name or a definition.
 */
export type BrowserMockRouterOptions = MockRouterOptions<never>;

/** A mock gateway for `setupWorker` (see {@link MockRouterBase} for its members). */
export type BrowserMockRouter = MockRouterBase;

/**
 * Creates a mock gateway for the browser.
 *
 * @throws an error of `src/core/base/errors.ts` (every entry exports them all), each naming the option and what was
 *   expected: `ScenarioError`, `KeysError`, `OptionsError` (also for a string where a file would be read:
 *   `fixtures`, `keys`, `scenarios`, a `scenario` path).
 */
export function createMockRouter(options: BrowserMockRouterOptions = {}): BrowserMockRouter {
  provideMswHttp(http);
  return mockRouterOf(createGatewayOn(browserPlatform, options), options);
}

/**
 * Creates the gateway alone (no handlers), on the browser platform: `gateway.handle` answers a `CoreRequest` with a
 * promise of the `CoreResponse`.
 *
 * @throws the errors of {@link createMockRouter}.
 */
export function createGateway(options: GatewayOptions<never> = {}): Gateway {
  return createGatewayOn(browserPlatform, options);
}

export type { Gateway } from '../core/gateway/gateway.js';
export type { GatewayOptions, Options, CorsOption } from '../core/gateway/options.js';
export type { MockRouterBase, MockRouterOptions } from '../msw/mock-router.js';
export { errorEnvelope, STATUS_DEFAULTS, type ErrorEnvelope, type ErrorType } from '../core/base/error-envelope.js';
export type { CoreRequest, CoreResponse, CoreBody } from '../core/base/types.js';
export { Journal, type JournalEntry, type JournalFilter, type JournalError, type BodyEnd, type SpeechAudio, type WordsFacts } from '../core/journal/journal.js';
export type { GatewayEvent, GatewayEventListener, GatewayEventSource, GatewayEventType, ClockState } from '../core/journal/gateway-events.js';
export * from '../core/base/errors.js';

export { type KeyList, type KeyEntry } from '../core/accounts/accounts.js';

export type { Fixtures } from '../core/formats/fixture-schema.js';
export type { Clock } from '../core/base/clock.js';
export type { Scenario, ScenarioDefinition, Rule } from '../core/scenarios/schema.js';
export { OPENROUTER_BASE_URL } from '../msw/handlers.js';
