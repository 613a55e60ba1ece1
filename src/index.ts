/**
 * mockrouter: a local simulator of the OpenRouter API for tests.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMockRouter } from 'mockrouter';
 *
 * const mock = createMockRouter({ seed: 42 });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * // fetch('https://openrouter.ai/api/v1/model/openai/gpt-4o-mini', { headers: { Authorization: 'Bearer sk-test' } })
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import { createGateway, type Gateway, type GatewayOptions } from './core/gateway.js';
import { createHandlers } from './msw/handlers.js';

/** Options of {@link createMockRouter}; see {@link GatewayOptions} for each. */
export type MockRouterOptions = GatewayOptions;

/** A mock gateway for in-process use. */
export interface MockRouter {
  /** MSW handlers for `setupServer(...handlers)` (msw/node) or `@mswjs/http-middleware`. */
  readonly handlers: HttpHandler[];
  /** The core simulator behind the handlers (shared with nothing else). */
  readonly gateway: Gateway;
}

/**
 * Creates an in-process mock gateway.
 *
 * @throws {FixtureError} when `options.fixtures` names a folder with missing or invalid files.
 */
export function createMockRouter(options: MockRouterOptions = {}): MockRouter {
  const gateway = createGateway(options);
  return { handlers: createHandlers(gateway), gateway };
}

export { createGateway, type Gateway, type GatewayOptions } from './core/gateway.js';
export { GatewayError, errorEnvelope, STATUS_DEFAULTS, type ErrorEnvelope, type ErrorType } from './core/errors.js';
export type { CoreRequest, CoreResponse, CoreBody } from './core/types.js';
export { OPENROUTER_BASE_URL } from './msw/handlers.js';
