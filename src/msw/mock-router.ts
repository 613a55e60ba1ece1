/**
 * What `createMockRouter` returns on every platform (`src/index.ts` for Node.js, `src/browser/index.ts` for
 * browsers): the MSW handlers over one gateway, and the controls a test uses between cases.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import type { GatewayOptions, Options } from '../core/gateway/options.js';
import { controlsOf, type MockControls } from '../core/gateway/mock-controls.js';
import type { Gateway } from '../core/gateway/gateway.js';
import { createHandlers } from './handlers.js';

/**
 * Options of `createMockRouter`: the gateway's ({@link GatewayOptions}) and the handlers' `cors`, each documented
 * at {@link Options}. `FilePath` is `string` on Node.js and `never` in browsers, where `fixtures`, `keys` and
 * `scenarios` take data, not files.
 */
export type MockRouterOptions<FilePath extends string = string> = Pick<Options<FilePath>, keyof GatewayOptions | 'cors'>;

/** A mock gateway behind MSW handlers, with the controls of every in-process adapter ({@link MockControls}). */
export interface MockRouterBase extends MockControls {
  /**
   * MSW handlers: for `setupServer(...handlers)` (msw/node), `setupWorker(...handlers)` (msw/browser) or
   * `@mswjs/http-middleware`.
   */
  readonly handlers: HttpHandler[];
}

/** The handlers (answering cross-origin requests as `options.cors` allows) and controls over `gateway`. */
export function mockRouterOf(gateway: Gateway, options: Pick<Options, 'cors'> = {}): MockRouterBase {
  return { handlers: createHandlers(gateway, options), ...controlsOf(gateway) };
}
