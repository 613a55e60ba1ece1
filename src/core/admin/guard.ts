/**
 * What keeps the standalone server's admin API (`/__mock/...`) safe on a developer's machine, checked by the front
 * door before any admin route (the dashboard's page and the event stream too); `GET /__mock/health` is exempt.
 * The gateway's API under `/api/v1` is not affected by any of it.
 *
 * 1. **Host** (DNS rebinding, as Vite's and webpack-dev-server's dev servers check it): a page on a domain whose
 *    DNS answer the attacker switches to 127.0.0.1 calls the server as "same-origin", with its own domain in the
 *    `Host` header. Admin requests answer only when `Host` (without the port) is `localhost` or a `*.localhost`
 *    name, `127.0.0.1`, `[::1]`, the address the server is bound to (every interface's address when bound to all),
 *    or a host of option `allowedHosts` (`--allowed-hosts`); `all` turns the check off (`hosts.ts`). Others
 *    get a 403 envelope naming the flag. A request without `Host` (HTTP/1.0; browsers always send one) passes.
 * 2. **Origin** (cross-site requests): a request that changes state (any method but `GET`, `HEAD` and `OPTIONS`)
 *    whose `Origin` is present and is neither the server's own origin (`http://` and the request's `Host`) nor an
 *    origin named by option `cors` gets a 403 envelope. Requests without `Origin` (curl, Node.js) pass.
 * 3. **Sec-Fetch-Site** (Fetch Metadata, as web.dev's "resource isolation policy"): a browser says where a request
 *    comes from, also where it sends no `Origin` (an `<img>`, `<audio>` or `<script>` of another page, a form
 *    posted from another site without one). A request of any method with `Sec-Fetch-Site: cross-site` or
 *    `same-site` gets a 403 envelope, unless its `Origin` is named by option `cors`, or it is a top-level
 *    navigation to the dashboard's page (`GET /__mock/ui`, `Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest:
 *    document`: a link to the dashboard still opens it). `same-origin`, `none` (typed, bookmarked) and no header
 *    (curl, SDKs, older browsers) pass, so the dashboard's own requests pass.
 * 4. **Token** (option `adminToken`, `--admin-token`): `Authorization: Bearer <token>`, `X-Mock-Admin-Token:
 *    <token>` or the login cookie ({@link adminCookieName}: `mockrouter_admin_<port>`). A browser gets the cookie
 *    from `GET /__mock/<any>?token=<token>` (303 to the same URL without `token`) or `POST /__mock/login` with the
 *    form field `token` (303 to `/__mock/ui`). The cookie carries a random session id, never the token: the server
 *    keeps the ids it issued (`AdminSessions` of `login-sessions.ts`, the newest 64); it is
 *    `HttpOnly; SameSite=Strict; Path=/__mock`, so the page's own requests and its `EventSource` carry it and other
 *    sites' requests do not, and named per port, so two servers on one host keep their own. A wrong token is a 401
 *    envelope.
 *
 * @module
 */
import { bearerKey } from '../accounts/auth.js';
import type { CorsPolicy } from '../http/cors.js';
import { errorResponse } from '../base/error-envelope.js';
import type { AdminSessions } from './login-sessions.js';
import { hostOfHeader, isAllowedHost, type HostPolicy } from './hosts.js';
import { paramName } from '../http/redact.js';
import { header, queryParams } from '../http/request.js';
import type { CoreRequest, CoreResponse } from '../base/types.js';

/** Prefix of the login cookie's name; the port follows ({@link adminCookieName}). */
export const ADMIN_COOKIE_PREFIX = 'mockrouter_admin_';

/** Where `POST /__mock/login` sends the browser: the dashboard. */
export const LOGIN_TARGET = '/__mock/ui';

/** Where a browser's login form with a wrong token is sent back to: the dashboard, which shows the form again. */
export const LOGIN_FAILED_TARGET = '/__mock/ui?login=failed';

/**
 * The login cookie's name for a request whose `Host` header is `host`: `mockrouter_admin_<port>`, the port the
 * browser connected to (`Host`'s, 80 when it names none or there is no `Host`). Named from `Host` rather than the
 * listening socket so it is right behind a port mapping (docker `-p 8080:4010`) and when the server listens on
 * port 0: the browser keeps cookies per host, not per port, and this is the port it sees.
 *
 * @example adminCookieName('127.0.0.1:4010') // 'mockrouter_admin_4010'
 * @example adminCookieName('[::1]:4011') // 'mockrouter_admin_4011'
 */
export function adminCookieName(host: string | undefined): string {
  const port = /^(?:\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(host?.trim() ?? '')?.[1];
  return `${ADMIN_COOKIE_PREFIX}${port === undefined ? 80 : Number(port)}`;
}

/** What the admin guard checks; made once per front door. */
export interface AdminGuard {
  /** The admin token, or `undefined` for none. */
  readonly token?: string | undefined;
  /**
   * The server's login sessions, issued by a login and accepted back in the cookie; without it (or without a
   * token) no cookie is issued or accepted, and only the token in a header lets a request in.
   */
  readonly sessions?: AdminSessions | undefined;
  /** The hosts admin requests may name. */
  readonly hosts: HostPolicy;
  /** The CORS policy: its named origins may also change state. */
  readonly cors: CorsPolicy;
}

/** Which checks {@link guardAdmin} makes: Host and Origin always; the token unless `token` is `false`. */
export interface GuardChecks {
  /** Check the admin token (default `true`); `false` for pages anyone who reaches the admin API may load. */
  token?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const utf8 = new TextEncoder();

/** Whether `given` equals `expected`, in a time that depends only on their lengths (browsers lack `timingSafeEqual`). */
function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = utf8.encode(given);
  const b = utf8.encode(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** The session ids of the request's login cookies named `name` (a browser may send one name more than once). */
function cookieSessions(request: CoreRequest, name: string): string[] {
  const cookies = request.headers.cookie;
  const out: string[] = [];
  for (const line of Array.isArray(cookies) ? cookies : cookies === undefined ? [] : [cookies]) {
    for (const pair of line.split(';')) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim() === name) out.push(pair.slice(eq + 1).trim());
    }
  }
  return out;
}

/**
 * The `Set-Cookie` value that hands a browser a login session: `<name>=<session id>; HttpOnly; SameSite=Strict;
 * Path=/__mock`.
 *
 * @param name the cookie's name, {@link adminCookieName} of the request's `Host`.
 * @param session an id from {@link AdminSessions.issue} (hex digits, which a cookie value holds as they are).
 */
export function adminCookie(name: string, session: string): string {
  return `${name}=${session}; HttpOnly; SameSite=Strict; Path=/__mock`;
}

/**
 * A 303 to `location`; when `sessions` is given, with the cookie of a new login session named for `request`'s
 * `Host`.
 */
function seeOther(location: string, request: CoreRequest, sessions: AdminSessions | undefined): CoreResponse {
  const headers: Record<string, string> = { Location: location, 'Cache-Control': 'no-store' };
  if (sessions !== undefined) headers['Set-Cookie'] = adminCookie(adminCookieName(header(request.headers, 'host')), sessions.issue());
  return { status: 303, headers, body: null };
}

/** The raw query without its `token` parameters. */
function withoutToken(query: string): string {
  return query
    .split('&')
    .filter((part) => part !== '' && paramName(part) !== 'token')
    .join('&');
}

/** Why `request` may not change state from its `Origin`, or `undefined` when it may. */
function crossSite(request: CoreRequest, cors: CorsPolicy): string | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const origin = header(request.headers, 'origin');
  if (origin === undefined || cors.origins.has(origin.toLowerCase())) return undefined;
  const host = header(request.headers, 'host');
  try {
    if (host !== undefined && new URL(origin).origin === new URL(`http://${host}`).origin) return undefined;
  } catch {
    // Not an origin (`null`, from a sandboxed page or a file): another site.
  }
  return `Admin API: ${request.method} from origin ${origin} refused: state-changing admin requests are same-origin only (cross-site request forgery defense); name the origin with --cors (option cors) to allow it`;
}

/** `Sec-Fetch-Site` values of a request another site made (a subdomain or another port of it is `same-site`). */
const OTHER_SITE = new Set(['cross-site', 'same-site']);

/** Whether `request` is a browser's top-level navigation to the dashboard's page (a link to it, clicked). */
function isDashboardNavigation(request: CoreRequest): boolean {
  return (
    request.method === 'GET' &&
    request.path.replace(/\/$/, '') === LOGIN_TARGET &&
    header(request.headers, 'sec-fetch-mode')?.toLowerCase() === 'navigate' &&
    (header(request.headers, 'sec-fetch-dest')?.toLowerCase() ?? 'document') === 'document'
  );
}

/**
 * Why `request` may not reach the admin API from its `Sec-Fetch-Site`, or `undefined` when it may: see the
 * module's description (point 3).
 */
function fromOtherSite(request: CoreRequest, cors: CorsPolicy): string | undefined {
  const site = header(request.headers, 'sec-fetch-site')?.trim().toLowerCase();
  if (site === undefined || !OTHER_SITE.has(site)) return undefined;
  const origin = header(request.headers, 'origin');
  if (origin !== undefined && cors.origins.has(origin.toLowerCase())) return undefined;
  if (isDashboardNavigation(request)) return undefined;
  return `Admin API: ${request.method} ${request.path} from another site (Sec-Fetch-Site: ${site}) refused: admin requests are same-origin only (cross-site request forgery defense); name the origin with --cors (option cors) to allow it`;
}

/**
 * The guard's answer to an admin request (`request.path` under `/__mock/`, not the health check), or `undefined`
 * when the request may go on to its route. In order:
 *
 * - 403 envelope for a `Host` the policy does not allow, naming `--allowed-hosts`;
 * - 403 envelope for a state-changing request from another site's `Origin`, naming `--cors`;
 * - 403 envelope for a request another site made (`Sec-Fetch-Site: cross-site` or `same-site`), but from an
 *   origin named by `--cors` or a navigation to the dashboard's page, naming `--cors`;
 * - with `checks.token` not `false`: for a `GET` with a `token` query parameter, a 303 to the same URL without it,
 *   with a new login session's cookie (no cookie when no token is set), or a 401 envelope for a wrong one; then,
 *   when a token is set, a 401 envelope unless the `Authorization: Bearer` or `X-Mock-Admin-Token` token is right
 *   or the login cookie carries a session of `guard.sessions` (`POST /__mock/login` is left to its route,
 *   {@link login}).
 */
export function guardAdmin(request: CoreRequest, guard: AdminGuard, checks: GuardChecks = {}): CoreResponse | undefined {
  const host = header(request.headers, 'host');
  if (!isAllowedHost(guard.hosts, host)) {
    const name = hostOfHeader(host!);
    return errorResponse(403, {
      message: `Admin API: Host "${name}" is not allowed (DNS rebinding defense); the admin API answers localhost, 127.0.0.1, [::1] and the server's own addresses; start it with --allowed-hosts ${name} (option allowedHosts) to allow this host`,
    });
  }
  const refused = crossSite(request, guard.cors) ?? fromOtherSite(request, guard.cors);
  if (refused !== undefined) return errorResponse(403, { message: refused });
  if (checks.token === false) return undefined;
  const { token } = guard;
  if (request.method === 'GET') {
    const params = queryParams(request.query);
    if (params.has('token')) {
      if (token !== undefined && !params.getAll('token').some((given) => tokenMatches(given, token))) {
        return errorResponse(401, { message: 'Admin API: wrong admin token in ?token=' });
      }
      const rest = withoutToken(request.query);
      return seeOther(rest === '' ? request.path : `${request.path}?${rest}`, request, token === undefined ? undefined : guard.sessions);
    }
  }
  if (token === undefined || isLoginRequest(request)) return undefined;
  const given = [header(request.headers, 'x-mock-admin-token'), bearerKey(request.headers)];
  if (given.some((value) => tokenMatches(value, token))) return undefined;
  const { sessions } = guard;
  if (sessions && cookieSessions(request, adminCookieName(header(request.headers, 'host'))).some((id) => sessions.has(id))) return undefined;
  return errorResponse(401, {
    message: 'Admin API: missing or wrong admin token (send Authorization: Bearer <token> or X-Mock-Admin-Token; in a browser, open /__mock/ui?token=<token> once)',
  });
}

/** Whether `request` is `POST /__mock/login` (with or without a trailing slash). */
function isLoginRequest(request: CoreRequest): boolean {
  return request.method === 'POST' && request.path.replace(/\/$/, '') === '/__mock/login';
}

/** The `token` field of a login body: a form (`token=...`) or a JSON object (`{"token": "..."}`). */
function loginToken(request: CoreRequest): string | undefined {
  const text = request.body ? new TextDecoder().decode(request.body) : '';
  if (/json/i.test(header(request.headers, 'content-type') ?? '')) {
    try {
      const value = JSON.parse(text) as { token?: unknown } | null;
      return typeof value?.token === 'string' ? value.token : undefined;
    } catch {
      return undefined;
    }
  }
  return new URLSearchParams(text).get('token') ?? undefined;
}

/**
 * `POST /__mock/login`: the dashboard's login form (`token=<admin token>`, form-encoded; a JSON `{"token"}` is
 * taken too).
 *
 * @param sessions where the new login session is kept; without it no cookie is set.
 * @returns a 303 to {@link LOGIN_TARGET} with a new login session's cookie (without a cookie when no token is
 *   set); a 400 envelope when the body has no `token` field; when the token is wrong, a 401 envelope, or for a
 *   browser's form (`Accept` names `text/html`) a 303 back to the form, {@link LOGIN_FAILED_TARGET}, which then
 *   says so.
 */
export function login(request: CoreRequest, token: string | undefined, sessions?: AdminSessions): CoreResponse {
  if (token === undefined) return seeOther(LOGIN_TARGET, request, undefined);
  const given = loginToken(request);
  if (given === undefined) return errorResponse(400, { message: 'body: expected the form field token=<admin token>' });
  if (!tokenMatches(given, token)) {
    if (/\btext\/html\b/i.test(header(request.headers, 'accept') ?? '')) return seeOther(LOGIN_FAILED_TARGET, request, undefined);
    return errorResponse(401, { message: 'Admin API: wrong admin token' });
  }
  return seeOther(LOGIN_TARGET, request, sessions);
}
