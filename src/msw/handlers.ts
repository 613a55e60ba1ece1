/**
 * The MSW request handlers: one per operation, plus a fallback for the rest of the real gateway's `/api/v1`.
 * Each is a thin adapter over the core's {@link Gateway.handle}.
 *
 * @module
 */
import { http, type HttpHandler } from 'msw';
import { frontDoor } from '../core/front-door.js';
import type { Gateway } from '../core/gateway.js';
import { ROUTES, interceptPattern } from '../core/routes.js';
import { toCoreRequest, toHttpResponse } from './convert.js';

/** The real gateway's base URL, matched by the fallback handler. */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';

function respond(gateway: Gateway) {
  const answer = frontDoor(gateway, { admin: 'off' });
  return async ({ request }: { request: Request }) => toHttpResponse(answer(await toCoreRequest(request)), request.signal, request.method === 'HEAD');
}

/** Any origin: a scheme and a host, so the handlers answer whatever base URL the client under test was given. */
const ANY_ORIGIN = String.raw`^[a-z][a-z0-9+.-]*:\/\/[^/]+`;

/**
 * One URL pattern per route of the core (`interceptPattern` in `src/core/routes.ts`, without capture groups, so
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
 * - each route of `src/core/routes.ts` (`/api/v1/audio/speech`, `/api/v1/model/{author}/{slug}`,
 *   `/api/v1/generation`) on any origin and any method (a wrong method gets the gateway's 405 envelope);
 * - `https://openrouter.ai/api/v1/*`: every other path of the real gateway gets the 404 envelope. Other
 *   origins' unknown paths are left alone, so the handlers do not swallow the rest of a test's traffic.
 *
 * @example
 * const server = setupServer(...createHandlers(createGateway()));
 */
export function createHandlers(gateway: Gateway): HttpHandler[] {
  const resolver = respond(gateway);
  return PATTERNS.map((pattern) => http.all(pattern, resolver));
}
