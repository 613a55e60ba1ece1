/**
 * Where a request goes, for both adapters: the index (`GET /` and `GET /api/v1`), the admin API under `/__mock/`
 * (the standalone server's), or the gateway's API; and CORS around all three (`cors.ts`): a preflight is answered
 * here, before any of them, and an actual response to a request with `Origin` gets the CORS headers. The
 * standalone server and the MSW handlers both answer through this one function, so they route alike; only what
 * they serve of the admin API differs.
 *
 * @module
 */
import { ADMIN_PREFIX, handleAdmin, isHealthPath, type AdminExposure } from '../admin/admin-api.js';
import { guardAdmin, type GuardChecks } from '../admin/guard.js';
import { AdminSessions } from '../admin/login-sessions.js';
import { hostPolicyOf, type HostPolicy } from '../admin/hosts.js';
import { apiIndex, isIndexRequest } from './api-index.js';
import { DEFAULT_CORS_POLICY, corsPreflight, isPreflight, withCorsHeaders, type CorsPolicy, type CorsScope } from './cors.js';
import type { Gateway } from '../gateway.js';
import { header } from './request.js';
import { API_PREFIX } from './routes.js';
import type { CoreRequest, CoreResponse } from '../types.js';

/** Options of {@link frontDoor}. */
export interface FrontDoorOptions {
  /** How much of the admin API to serve. */
  admin: AdminExposure;
  /** When set, admin requests but health must carry it (see `handleAdmin`). */
  adminToken?: string | undefined;
  /**
   * The `Host` values admin requests may carry (`hostPolicyOf` in `admin-hosts.ts` makes one from option
   * `allowedHosts` and the server's addresses). Default: `localhost` (and `*.localhost`), `127.0.0.1`, `[::1]`.
   */
  allowedHosts?: HostPolicy | undefined;
  /**
   * Which origins may call cross-origin (`corsPolicyOf` in `cors.ts` makes one from option `cors`). Default
   * {@link DEFAULT_CORS_POLICY}: any origin on the gateway's API, none on the admin API.
   */
  cors?: CorsPolicy | undefined;
}

/** The answer function of one adapter; see {@link frontDoor}. */
export interface FrontDoor {
  /** Answers one request. Never throws. */
  (request: CoreRequest): CoreResponse;
  /**
   * `response` with the CORS headers the front door would add to it for `request` (a copy, or `response` itself
   * when none apply): for answers the adapter makes without the core, such as the standalone server's framework
   * errors (body too large, missing `Host`).
   */
  withCors(request: Pick<CoreRequest, 'path' | 'headers'>, response: CoreResponse): CoreResponse;
  /**
   * The admin guard's answer to `request` (`guardAdmin` in `admin-guard.ts`: 403 for a refused Host or Origin,
   * 401 or a 303 login redirect for the token), or `undefined` when it may be answered: for admin paths an adapter
   * answers itself (the dashboard's files, with `{ token: false }`), so they are guarded as the admin routes are.
   * Set by {@link frontDoor}; optional in the type so a wrapper that copies only `withCors` is still a
   * `FrontDoor`.
   */
  guardAdmin?(request: CoreRequest, checks?: GuardChecks): CoreResponse | undefined;
}

/** The CORS scope of a raw path: the admin API under `/__mock/`, else the gateway's API. */
function scopeOf(path: string): CorsScope {
  return path.startsWith(ADMIN_PREFIX) ? 'admin' : 'api';
}

/** Whether a preflight on `path` is answered: the gateway's `/api/v1` and everything under it, the index and the admin API. */
function takesPreflight(path: string, scope: CorsScope): boolean {
  return scope === 'admin' || path === '/' || path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/**
 * The function that answers every request of one adapter: a CORS preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) on the gateway's paths or the admin API's by `corsPreflight`, never journaled;
 * then the index, the admin API as `options.admin` allows (behind its guard: Host, Origin, token; see
 * `admin-guard.ts`), and everything else through `gateway.handle` (journaled), each with the CORS headers of
 * `withCorsHeaders` when the request has an `Origin` the policy allows.
 * A request without `Origin` is answered exactly as without CORS. Never throws.
 */
export function frontDoor(gateway: Gateway, options: FrontDoorOptions): FrontDoor {
  const { admin, adminToken } = options;
  const policy = options.cors ?? DEFAULT_CORS_POLICY;
  const hosts = options.allowedHosts ?? hostPolicyOf(undefined);
  // The login sessions of this front door's server: the cookie a browser gets carries one of them, not the token.
  const sessions = adminToken === undefined ? undefined : new AdminSessions();
  const route = (request: CoreRequest): CoreResponse => {
    if (isIndexRequest(request.method, request.path)) return apiIndex(admin);
    if (admin !== 'off' && request.path.startsWith(ADMIN_PREFIX) && (admin === 'on' || isHealthPath(request.path))) {
      return handleAdmin(gateway, request, { token: adminToken, sessions, hosts, cors: policy });
    }
    return gateway.handle(request);
  };
  const answer: FrontDoor = (request) => {
    const origin = header(request.headers, 'origin');
    if (origin === undefined) return route(request);
    const scope = scopeOf(request.path);
    if (isPreflight(request) && takesPreflight(request.path, scope)) return corsPreflight(policy, request, scope);
    return withCorsHeaders(policy, origin, scope, route(request));
  };
  answer.withCors = (request, response) => withCorsHeaders(policy, header(request.headers, 'origin'), scopeOf(request.path), response);
  answer.guardAdmin = (request, checks) => {
    const refused = guardAdmin(request, { token: adminToken, sessions, hosts, cors: policy }, checks);
    return refused && withCorsHeaders(policy, header(request.headers, 'origin'), 'admin', refused);
  };
  return answer;
}
