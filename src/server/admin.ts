/**
 * The admin API composed around the API's front door, for the standalone server (the only adapter that serves
 * it): `/__mock/*` goes to `handleAdmin` of `src/core/admin/admin-api.ts` behind its guard (Host, Origin, token;
 * `src/core/admin/guard.ts`), with the CORS of the admin scope; the index lists the admin endpoints served; every
 * other request goes through the front door unchanged. The dashboard's files are composed around this in turn
 * (`withDashboard` in `ui.ts`).
 *
 * @module
 */
import { ADMIN_ENDPOINTS, ADMIN_PREFIX, handleAdmin, isHealthPath } from '../core/admin/admin-api.js';
import { guardAdmin, type GuardChecks } from '../core/admin/guard.js';
import type { HostPolicy } from '../core/admin/hosts.js';
import { AdminSessions } from '../core/admin/login-sessions.js';
import type { FrontDoor } from '../core/gateway/api-front-door.js';
import { apiIndex, isIndexRequest } from '../core/http/api-index.js';
import { corsPreflight, isPreflight, withCorsHeaders, type CorsPolicy } from '../core/http/cors.js';
import { header } from '../core/http/request.js';
import type { Gateway } from '../core/gateway/gateway.js';
import type { CoreRequest, CoreResponse } from '../core/base/types.js';

/** The dashboard's page (`src/server/ui.ts`), listed in the index beside the admin API. */
const DASHBOARD_ENDPOINT = `GET ${ADMIN_PREFIX}ui`;

/**
 * How much of the admin API is served: `on` (all of it, and the dashboard), `health` (only `GET /__mock/health`,
 * the readiness probe the server keeps under `--no-admin`; other admin paths answer as the API answers an unknown
 * path: the 404 envelope).
 */
export type AdminExposure = 'on' | 'health';

/** Options of {@link withAdmin}. */
export interface AdminDoorOptions {
  /** How much of the admin API to serve. */
  exposure: AdminExposure;
  /** When set, admin requests but health must carry it (option `adminToken`; see `handleAdmin`). */
  token?: string | undefined;
  /** The `Host` values admin requests may carry (`hostPolicyOf` of `src/core/admin/hosts.ts`, from option `allowedHosts`). */
  hosts: HostPolicy;
  /** The CORS policy, the same the front door was given (`corsPolicyOf`, from option `cors`). */
  cors: CorsPolicy;
}

/** A front door with the admin API around it; see {@link withAdmin}. */
export interface AdminDoor extends FrontDoor {
  /**
   * The admin guard's answer to `request` (`guardAdmin` of `src/core/admin/guard.ts`: 403 for a refused Host or
   * Origin, 401 or a 303 login redirect for the token, with the admin scope's CORS headers), or `undefined` when
   * it may be answered: for admin paths the server answers itself (the dashboard's files, with `{ token: false }`),
   * so they are guarded as the admin routes are.
   */
  guardAdmin(request: CoreRequest, checks?: GuardChecks): CoreResponse | undefined;
}

/**
 * `door` with the admin API in front of it. A request under `/__mock/`: a CORS preflight (with `Origin`) is
 * answered by `corsPreflight` in the admin scope; else `handleAdmin` answers it (for exposure `health`, only the
 * health check; other admin paths go to `gateway.handle`, which answers the 404 envelope, journaled), with the
 * admin scope's CORS headers when the request has an `Origin`. `GET`/`HEAD` of the index (`/`, `/api/v1`) lists
 * the admin endpoints served. Everything else is `door`'s. One set of login sessions per call (per server).
 * Answers with a promise of the response, which never rejects (a fault of an admin action is its 500 envelope).
 */
export function withAdmin(door: FrontDoor, gateway: Gateway, options: AdminDoorOptions): AdminDoor {
  const { exposure, token, hosts, cors: policy } = options;
  // The login sessions of this server: the cookie a browser gets carries one of them, not the token.
  const sessions = token === undefined ? undefined : new AdminSessions();
  const guard = { token, sessions, hosts, cors: policy };
  const links = exposure === 'on' ? [...ADMIN_ENDPOINTS, DASHBOARD_ENDPOINT] : ADMIN_ENDPOINTS.filter((endpoint) => endpoint.endsWith('/health'));
  const route = (request: CoreRequest): Promise<CoreResponse> =>
    exposure === 'on' || isHealthPath(request.path) ? handleAdmin(gateway, request, guard) : gateway.handle(request);
  const admin = async (request: CoreRequest): Promise<CoreResponse> => {
    const origin = header(request.headers, 'origin');
    if (origin === undefined) return route(request);
    if (isPreflight(request)) return corsPreflight(policy, request, 'admin');
    return withCorsHeaders(policy, origin, 'admin', await route(request));
  };
  // Not `async`: the API's requests get `door`'s promise as it is, with nothing added on their way.
  const answer = ((request: CoreRequest): Promise<CoreResponse> => {
    if (request.path.startsWith(ADMIN_PREFIX)) return admin(request);
    return isIndexRequest(request.method, request.path) ? Promise.resolve(door.withCors(request, apiIndex(links))) : door(request);
  }) as AdminDoor;
  answer.withCors = (request, response) =>
    request.path.startsWith(ADMIN_PREFIX) ? withCorsHeaders(policy, header(request.headers, 'origin'), 'admin', response) : door.withCors(request, response);
  answer.guardAdmin = (request, checks) => {
    const refused = guardAdmin(request, guard, checks);
    return refused && withCorsHeaders(policy, header(request.headers, 'origin'), 'admin', refused);
  };
  return answer;
}
