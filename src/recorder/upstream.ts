/**
 * `--upstream` of `mockrouter record` and `mockrouter verify`: the gateway they send to, read one way by both.
 *
 * @module
 */
import { API_PREFIX } from '../core/http/routes.js';
import { redactUrlCredentials } from '../core/http/redact.js';

/** Where requests go: `origin` plus `prefix` plus the request's path under `/api/v1`. */
export interface Upstream {
  /** `http://host:port` or `https://host`. */
  origin: string;
  /** Path put before each request's path (`/prefix`), `''` when none. */
  prefix: string;
}

/** An `--upstream` value that is no http(s) URL requests can be sent to. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

/**
 * Parses `--upstream`: an `http:` or `https:` origin with an optional path prefix. The API sits at
 * `<origin><prefix>/api/v1`, and a path that already ends with `/api/v1` counts without it, so
 * `https://openrouter.ai` and `https://openrouter.ai/api/v1` are the same upstream.
 *
 * @throws {UpstreamError} for a URL that does not parse, is not `http:`/`https:`, carries a user name or password
 *   (the key travels in `Authorization`, never in a URL that is printed), a query or a fragment (nothing forwards
 *   them). Each message starts `--upstream: ` and never repeats a password.
 * @example upstreamOf('https://openrouter.ai/api/v1') // { origin: 'https://openrouter.ai', prefix: '' }
 */
export function upstreamOf(text: string): Upstream {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UpstreamError(`--upstream: expected an http or https URL such as https://openrouter.ai, got ${redactUrlCredentials(JSON.stringify(text))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamError(`--upstream: expected an http or https URL, got the scheme "${url.protocol}"`);
  if (url.username !== '' || url.password !== '') throw new UpstreamError('--upstream: expected no user name or password in the URL (the key travels in the Authorization header)');
  if (url.search !== '' || url.hash !== '') throw new UpstreamError('--upstream: expected no query or fragment in the URL, only an origin with an optional path prefix');
  let prefix = url.pathname.replace(/\/+$/, '');
  if (prefix.endsWith(API_PREFIX)) prefix = prefix.slice(0, -API_PREFIX.length);
  return { origin: url.origin, prefix };
}
