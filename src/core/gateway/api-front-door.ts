/**
 * Where a request goes, for every adapter: the index (`GET /` and `GET /api/v1`) or the gateway's API; and CORS
 * around both (`cors.ts`): a preflight is answered here, before either, and an actual response to a request with
 * `Origin` gets the CORS headers. The MSW handlers (in Node.js and in the browser), the standalone server and the
 * express middleware (`createMiddleware`, `src/express/`) all answer through this one function, so they route alike.
 * The admin API is not here: the standalone server composes it around this door (`withAdmin` in
 * `src/server/admin.ts`), since only it serves one.
 *
 * @module
 */
import { apiIndex, isIndexRequest } from '../http/api-index.js';
import { DEFAULT_CORS_POLICY, corsPreflight, isPreflight, withCorsHeaders, type CorsPolicy } from '../http/cors.js';
import type { Gateway } from './gateway.js';
import { header } from '../http/request.js';
import { API_PREFIX } from '../http/routes.js';
import type { CoreRequest, CoreResponse } from '../base/types.js';

/** Options of {@link frontDoor}. */
export interface FrontDoorOptions {
  /**
   * Which origins may call cross-origin (`corsPolicyOf` in `cors.ts` makes one from option `cors`). Default
   * {@link DEFAULT_CORS_POLICY}: any origin.
   */
  cors?: CorsPolicy | undefined;
}

/** The answer function of one adapter; see {@link frontDoor}. */
export interface FrontDoor {
  /** Answers one request: a promise of the response, which never rejects. */
  (request: CoreRequest): Promise<CoreResponse>;
  /**
   * `response` with the CORS headers the front door would add to it for `request` (a copy, or `response` itself
   * when none apply): for answers the adapter makes without the core, such as the standalone server's own errors
   * (body too large, missing `Host`).
   */
  withCors(request: Pick<CoreRequest, 'path' | 'headers'>, response: CoreResponse): CoreResponse;
}

/** Whether a preflight on raw `path` is answered: the gateway's `/api/v1` and everything under it, and the index at `/`. */
function takesPreflight(path: string): boolean {
  return path === '/' || path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/**
 * The function that answers every request of one adapter: a CORS preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) on the gateway's paths by `corsPreflight`, never journaled; then the index
 * (listing no admin endpoint: see `api-index.ts`), and everything else through `gateway.handle` (journaled), each
 * with the CORS headers of `withCorsHeaders` (scope `api`) when the request has an `Origin` the policy allows.
 * A request without `Origin` is answered exactly as without CORS. Answers with a promise of the response, which
 * never rejects (`gateway.handle` never does).
 */
export function frontDoor(gateway: Gateway, options: FrontDoorOptions = {}): FrontDoor {
  const policy = options.cors ?? DEFAULT_CORS_POLICY;
  // Not `async`: the gateway's promise is passed on as it is, and a promise is made here only when there is none.
  const route = (request: CoreRequest): Promise<CoreResponse> =>
    isIndexRequest(request.method, request.path) ? Promise.resolve(apiIndex()) : gateway.handle(request);
  const answer: FrontDoor = (request) => {
    const origin = header(request.headers, 'origin');
    if (origin === undefined) return route(request);
    if (isPreflight(request) && takesPreflight(request.path)) return Promise.resolve(corsPreflight(policy, request, 'api'));
    return route(request).then((response) => withCorsHeaders(policy, origin, 'api', response));
  };
  answer.withCors = (request, response) => withCorsHeaders(policy, header(request.headers, 'origin'), 'api', response);
  return answer;
}
