/**
 * The options of `createMiddleware` (`mockrouter/express`).
 *
 * @module
 */
import type { GatewayOptions, Options } from '../core/gateway/options.js';

/**
 * Options of `createMiddleware`: the gateway's ({@link GatewayOptions}) and `cors`, each documented at
 * {@link Options} (`src/core/gateway/options.ts`); the same part `createMockRouter` takes (`MockRouterOptions`).
 * Files and folders may be named (`fixtures`, `keys`, `scenarios`), as on Node.js everywhere.
 */
export type MiddlewareOptions = Pick<Options, keyof GatewayOptions | 'cors'>;
