/**
 * The MSW request handlers: one per operation, plus a fallback for the rest of the real gateway's `/api/v1`.
 * Each is a thin adapter over the core's {@link Gateway.handle}.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import type { Options } from '../core/gateway/options.js';
import { corsPolicyOf } from '../core/http/cors.js';
import { toErrorResponse } from '../core/base/error-envelope.js';
import { frontDoor } from '../core/gateway/api-front-door.js';
import type { Gateway } from '../core/gateway/gateway.js';
import { ROUTES, interceptPattern } from '../core/http/routes.js';
import type * as Convert from './convert.js';
import { mswHttp } from './msw-http.js';

/** The msw response side (`HttpResponse`, `delay`), loaded with the first request rather than with the package. */
let convert: Promise<typeof Convert> | undefined;

/** The real gateway's base URL, matched by the fallback handler. */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';

/** Options of {@link createHandlers}: `cors`, documented at {@link Options.cors}. */
export type HandlerOptions = Pick<Options, 'cors'>;

/**
 * The resolver of every handler: the request through the front door. Never rejects: an unexpected error (a body that
 * cannot be read, a fault of the adapter) is reported once (`gateway.reportError`) and answered with the 500
 * envelope, never msw's own 500, whose body carries the error's stack.
 */
function respond(gateway: Gateway, options: HandlerOptions) {
  const answer = frontDoor(gateway, { cors: corsPolicyOf(options.cors) });
  return async ({ request }: { request: Request }) => {
    const { toCoreRequest, toHttpResponse } = await (convert ??= import('./convert.js'));
    const where = () => `${request.method} ${new URL(request.url).pathname}`;
    try {
      const result = await answer(await toCoreRequest(request));
      const report = (error: unknown) => gateway.reportError(error, `streaming the ${result.status} answer to ${where()}`);
      return await toHttpResponse(result, request.signal, request.method === 'HEAD', report);
    } catch (error) {
      gateway.reportError(error, `request ${where()}`);
      return toHttpResponse(toErrorResponse(error), request.signal, request.method === 'HEAD');
    }
  };
}

/** Any origin: a scheme and a host, so the handlers answer whatever base URL the client under test was given. */
const ANY_ORIGIN = String.raw`^[a-z][a-z0-9+.-]*:\/\/[^/]+`;

/**
 * One URL pattern per route of the core (`interceptPattern` in `src/core/http/routes.ts`, without capture groups, so
 * msw decodes nothing and a path with broken percent-encoding reaches the core's envelope), on any origin; then
 * the rest of the real gateway's `/api/v1`.
 */
const PATTERNS: readonly RegExp[] = [
  ...ROUTES.map((route) => new RegExp(`${ANY_ORIGIN}${interceptPattern(route)}$`, 'i')),
  /^https:\/\/openrouter\.ai\/api\/v1(?:\/.*)?$/i,
];

/**
 * Builds the handlers for `gateway`:
 *
 * - each route of `src/core/http/routes.ts` (`/api/v1/audio/speech`, `/api/v1/model/{author}/{slug}`,
 *   `/api/v1/generation`) on any origin and any method (a wrong method gets the gateway's 405 envelope);
 * - `https://openrouter.ai/api/v1/*`: every other path of the real gateway gets the 404 envelope. Other
 *   origins' unknown paths are left alone, so the handlers do not swallow the rest of a test's traffic.
 *
 * An explicit `OPTIONS` preflight (with `Origin` and `Access-Control-Request-Method`) on those paths is answered as
 * the standalone server answers it, and responses to requests with an `Origin` carry the CORS headers
 * (`options.cors`, default any origin).
 *
 * @throws {OptionsError} (`option` `cors`) for a `cors` that is not `*` or `scheme://host[:port]` origins.
 * @example
 * const server = setupServer(...createHandlers(createGateway()));
 * @example
 * const handlers = createHandlers(createGateway(), { cors: ['http://localhost:5173'] });
 */
export function createHandlers(gateway: Gateway, options: HandlerOptions = {}): HttpHandler[] {
  const resolver = respond(gateway, options);
  const http = mswHttp();
  return PATTERNS.map((pattern) => http.all(pattern, resolver));
}
