/**
 * The MSW request handlers: one per operation, plus a fallback for the rest of the real gateway's `/api/v1`.
 * Each is a thin adapter over the core's {@link Gateway.handle}.
 *
 * @module
 */
import { http, type HttpHandler } from 'msw';
import type { Gateway } from '../core/gateway.js';
import { toCoreRequest, toHttpResponse } from './convert.js';

/** The real gateway's base URL (facts file), matched by the fallback handler. */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';

function respond(gateway: Gateway) {
  return async ({ request }: { request: Request }) =>
    toHttpResponse(gateway.handle(await toCoreRequest(request)), request.signal, request.method === 'HEAD');
}

/**
 * Paths as regular expressions without capture groups: msw then decodes nothing, so a path with broken
 * percent-encoding (`/api/v1/model/openai/%zz`) reaches the core, which answers with the gateway's envelope,
 * instead of msw answering 500 with a `URIError` stack. Any origin, optional trailing slash.
 */
const ANY_ORIGIN = String.raw`^[a-z][a-z0-9+.-]*:\/\/[^/]+`;
const PATHS = {
  speech: new RegExp(`${ANY_ORIGIN}/api/v1/audio/speech/?$`, 'i'),
  model: new RegExp(`${ANY_ORIGIN}/api/v1/model/.*$`, 'i'),
  generation: new RegExp(`${ANY_ORIGIN}/api/v1/generation/?$`, 'i'),
  gateway: /^https:\/\/openrouter\.ai\/api\/v1(?:\/.*)?$/i,
};

/**
 * Builds the handlers for `gateway`:
 *
 * - `/api/v1/audio/speech`, `/api/v1/model/{author}/{slug}` and `/api/v1/generation` on any origin and any method
 *   (a wrong method gets the gateway's 405 envelope);
 * - `https://openrouter.ai/api/v1/*`: every other path of the real gateway gets the 404 envelope. Other
 *   origins' unknown paths are left alone, so the handlers do not swallow the rest of a test's traffic.
 *
 * @example
 * const server = setupServer(...createHandlers(createGateway()));
 */
export function createHandlers(gateway: Gateway): HttpHandler[] {
  const resolver = respond(gateway);
  return [
    http.all(PATHS.speech, resolver),
    http.all(PATHS.model, resolver),
    http.all(PATHS.generation, resolver),
    http.all(PATHS.gateway, resolver),
  ];
}
