/**
 * CORS, so a page in a browser can call the simulator as it calls the real gateway (`docs/behaviour.md`, "CORS";
 * what the simulator chooses is under "Where the simulator chooses"): the policy (which origins may call) and two
 * pure functions over the core's plain request and response, the answer to a preflight ({@link corsPreflight})
 * and the headers added to an actual response ({@link withCorsHeaders}). `api-front-door.ts` applies them, so the
 * three adapters (msw, the standalone server, express) answer alike. The protocol is the Fetch standard's
 * (https://fetch.spec.whatwg.org/#http-cors-protocol).
 *
 * Two scopes: the gateway's API (`/api/v1/...` and the index), open to any origin by default, as the gateway is;
 * and the standalone server's admin API (`/__mock/...`), same-origin unless the policy names the origin.
 * A request without `Origin` gets no CORS header at all.
 *
 * @module
 */
import { errorResponse } from '../base/error-envelope.js';
import { header } from './request.js';
import type { CoreRequest, CoreResponse } from '../base/types.js';
import { OptionsError } from '../base/errors.js';
/**
 * The type of option `Options.cors` (`src/core/gateway/options.ts`) (the CLI's `--cors`): `*`, or origins `scheme://host[:port]`, as one
 * comma-separated string or a list.
 *
 * @example 'http://localhost:5173,https://app.example'
 * @example ['http://localhost:5173']
 */
export type CorsOption = string | readonly string[];

/** Which origins may call cross-origin; made by {@link corsPolicyOf}. */
export interface CorsPolicy {
  /** Any origin may call the gateway's API (`*` given): answered `Access-Control-Allow-Origin: *`. */
  readonly anyOrigin: boolean;
  /**
   * Origins named explicitly, serialized as browsers send `Origin` (lower-case scheme and host, no default port),
   * e.g. `http://localhost:5173`. They may call both the gateway's API and the admin API; the answer echoes them.
   */
  readonly origins: ReadonlySet<string>;
  /** The policy as messages show it: `*`, `http://localhost:5173, https://app.example`. */
  readonly description: string;
}

/** The default policy, the gateway's: any origin may call the API (`*`); the admin API stays same-origin. */
export const DEFAULT_CORS_POLICY: CorsPolicy = Object.freeze({ anyOrigin: true, origins: new Set<string>(), description: '*' });

/** Where a request goes, for CORS: the gateway's API (and the index) or the admin API (`/__mock/...`). */
export type CorsScope = 'api' | 'admin';

/** `Access-Control-Max-Age` of an allowed preflight, seconds (one day; Chromium caps it at 7200, Firefox at 86400). */
export const PREFLIGHT_MAX_AGE_S = 86_400;

/** `Access-Control-Allow-Methods` of an allowed preflight, per scope (the admin API also takes PUT and DELETE). */
export const CORS_ALLOW_METHODS: Readonly<Record<CorsScope, string>> = {
  api: 'GET, HEAD, POST, OPTIONS',
  admin: 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
};

/**
 * `Access-Control-Allow-Headers` of an allowed preflight that names no `Access-Control-Request-Headers` (one that
 * names some gets exactly those back): the bearer key, the JSON body, the gateway's attribution headers and the
 * simulator's own request headers (`X-Mock-Status`, `X-Mock-Scenario`, `X-Mock-Session`, `X-Mock-Speech`; the admin token on the
 * admin API).
 */
export const CORS_DEFAULT_ALLOW_HEADERS: Readonly<Record<CorsScope, string>> = {
  api: 'Authorization, Content-Type, Accept, HTTP-Referer, X-Title, X-Mock-Status, X-Mock-Scenario, X-Mock-Session, X-Mock-Speech',
  admin: 'Authorization, Content-Type, Accept, X-Mock-Admin-Token',
};

/**
 * Response headers a page script may read, sent as `Access-Control-Expose-Headers` on every actual response to an
 * allowed origin (with any other header that response carries, such as a scenario rule's own): the generation id,
 * the rate-limit headers of a 429 and the applied scenario rule. `Content-Type` and `Content-Length` are readable
 * anyway (CORS-safelisted).
 */
export const CORS_EXPOSE_HEADERS: readonly string[] = ['X-Generation-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Mock-Applied'];

/** Response headers every page may read without being exposed (the Fetch standard's CORS-safelisted ones). */
const SAFELISTED_RESPONSE_HEADERS = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
const EXPOSED = new Set([...CORS_EXPOSE_HEADERS.map((name) => name.toLowerCase()), ...SAFELISTED_RESPONSE_HEADERS]);
const EXPOSE_LIST = CORS_EXPOSE_HEADERS.join(', ');

/** `scheme://host[:port]` with an optional trailing slash: nothing else (no path, query, fragment or user). */
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s\\]+\/?$/i;
/** An HTTP field name (RFC 9110, `token`). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

const EXPECTED = 'expected "*" or origins scheme://host[:port] separated by commas, such as http://localhost:5173,https://app.example';

/** One origin of the option, serialized as a browser sends it, or `undefined` when it is not `scheme://host[:port]`. */
function normalizeOrigin(entry: string): string | undefined {
  if (!ORIGIN_SHAPE.test(entry)) return undefined;
  try {
    const url = new URL(entry);
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Option `cors`, checked, as a policy: `undefined` gives {@link DEFAULT_CORS_POLICY}. Entries are split on commas
 * and trimmed; empty ones are ignored.
 *
 * @throws {OptionsError} (`option` `cors`) for anything but `*` and `scheme://host[:port]` origins, or none at
 *   all: `expected "*" or origins scheme://host[:port] separated by commas, such as ...; got "localhost:5173"`.
 * @example corsPolicyOf('http://localhost:5173') // { anyOrigin: false, origins: Set { 'http://localhost:5173' }, ... }
 */
export function corsPolicyOf(option: CorsOption | undefined): CorsPolicy {
  if (option === undefined) return DEFAULT_CORS_POLICY;
  const list: readonly unknown[] = typeof option === 'string' ? [option] : Array.isArray(option) ? option : [option];
  let anyOrigin = false;
  const origins = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'string') throw corsError(`${EXPECTED}; got ${JSON.stringify(item) ?? String(item)}`);
    for (const raw of item.split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      if (entry === '*') {
        anyOrigin = true;
        continue;
      }
      const origin = normalizeOrigin(entry);
      if (origin === undefined) throw corsError(`${EXPECTED}; got "${entry}"`);
      origins.add(origin);
    }
  }
  if (!anyOrigin && origins.size === 0) throw corsError(`${EXPECTED}; got ${JSON.stringify(option)}`);
  const description = [...(anyOrigin ? ['*'] : []), ...origins].join(', ');
  return { anyOrigin, origins, description };
}

function corsError(problem: string): OptionsError {
  return new OptionsError('cors', problem);
}

/**
 * The `Access-Control-Allow-Origin` value for a request from `origin` in `scope`: the origin itself when the policy
 * names it, `*` on the gateway's API when the policy allows any origin, else `undefined` (not allowed).
 */
export function allowedOrigin(policy: CorsPolicy, origin: string, scope: CorsScope): string | undefined {
  if (policy.origins.has(origin.toLowerCase())) return origin;
  return scope === 'api' && policy.anyOrigin ? '*' : undefined;
}

/** Whether `request` is a CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`. */
export function isPreflight(request: CoreRequest): boolean {
  return request.method === 'OPTIONS' && header(request.headers, 'origin') !== undefined && header(request.headers, 'access-control-request-method') !== undefined;
}

/** `Access-Control-Request-Headers` as a list of field names (those that are not names are dropped). */
function requestedHeaders(request: CoreRequest): string[] {
  const value = header(request.headers, 'access-control-request-headers') ?? '';
  return value.split(',').map((name) => name.trim()).filter((name) => TOKEN.test(name));
}

/**
 * The answer to a preflight ({@link isPreflight}) in `scope`. Never journaled and needs no key: browsers send
 * neither credentials nor the request's own headers on a preflight.
 *
 * @returns for an allowed origin, 204 with no body and `Access-Control-Allow-Origin` (`*`, or the origin with
 *   `Vary: Origin`), `Access-Control-Allow-Methods` ({@link CORS_ALLOW_METHODS}), `Access-Control-Allow-Headers`
 *   (the requested ones, else {@link CORS_DEFAULT_ALLOW_HEADERS}) and `Access-Control-Max-Age`
 *   ({@link PREFLIGHT_MAX_AGE_S}); for another origin, the 403 envelope (`permission_denied`) saying which origins
 *   the policy allows, with no `Access-Control-*` header, so the browser blocks the request.
 * @example
 * corsPreflight(DEFAULT_CORS_POLICY, { method: 'OPTIONS', path: '/api/v1/audio/speech', query: '',
 *   headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } }, 'api')
 * // { status: 204, headers: { 'Access-Control-Allow-Origin': '*', ... }, body: null }
 */
export function corsPreflight(policy: CorsPolicy, request: CoreRequest, scope: CorsScope): CoreResponse {
  const origin = header(request.headers, 'origin') ?? '';
  const allow = allowedOrigin(policy, origin, scope);
  if (allow === undefined) {
    const message =
      scope === 'admin'
        ? `CORS: origin ${origin} may not call the admin API; it is same-origin unless the cors option (--cors) names the origin (allowed: ${policy.origins.size > 0 ? [...policy.origins].join(', ') : 'none'})`
        : `CORS: origin ${origin} is not allowed by the cors option (--cors): allowed ${policy.description}`;
    return errorResponse(403, { message });
  }
  const requested = requestedHeaders(request);
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': allow,
    'Access-Control-Allow-Methods': CORS_ALLOW_METHODS[scope],
    'Access-Control-Allow-Headers': requested.length > 0 ? requested.join(', ') : CORS_DEFAULT_ALLOW_HEADERS[scope],
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
  };
  if (allow !== '*') headers.Vary = 'Origin';
  return { status: 204, headers, body: null };
}

/**
 * `response` as sent to a request from `origin` in `scope`: for an allowed origin, a copy with
 * `Access-Control-Allow-Origin` (`*`, or the origin with `Origin` added to `Vary`) and `Access-Control-Expose-Headers`
 * ({@link CORS_EXPOSE_HEADERS} and any other header of the response that is not CORS-safelisted); else (no
 * `Origin`, or one the policy does not allow) `response` itself, unchanged. Any status, any body (a streamed one
 * too: the copy keeps the body, `delayMs`, `reset` and `onDone`).
 */
export function withCorsHeaders(policy: CorsPolicy, origin: string | undefined, scope: CorsScope, response: CoreResponse): CoreResponse {
  if (origin === undefined) return response;
  const allow = allowedOrigin(policy, origin, scope);
  if (allow === undefined) return response;
  const extra = Object.keys(response.headers).filter((name) => !EXPOSED.has(name.toLowerCase()));
  const headers: Record<string, string> = {
    ...response.headers,
    'Access-Control-Allow-Origin': allow,
    'Access-Control-Expose-Headers': extra.length > 0 ? `${EXPOSE_LIST}, ${extra.join(', ')}` : EXPOSE_LIST,
  };
  if (allow !== '*') headers.Vary = response.headers.Vary ? `${response.headers.Vary}, Origin` : 'Origin';
  return { ...response, headers };
}
