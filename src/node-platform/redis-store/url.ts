/**
 * The URL of a shared store (option `store`): which are accepted, and how they are named in messages.
 *
 * @module
 */
import { OptionsError } from '../../core/base/errors.js';

import { redactUrlCredentials } from '../../core/http/redact.js';

/** The default port of a Redis-protocol server. */
const DEFAULT_PORT = 6379;

/** A store URL, checked: its scheme and how messages name it. */
export interface StoreUrl {
  /** The URL as given (credentials included): what the client connects with. */
  readonly url: string;
  /** Whether it is `rediss://` (TLS). */
  readonly tls: boolean;
  /**
   * The URL without user and password, with the port and database made explicit: `redis://127.0.0.1:6379/0`
   * (`GatewayStore.description`).
   */
  readonly description: string;
}

/**
 * Checks a store URL: `redis://[user:password@]host[:port][/db]` or `rediss://...` (TLS), db a whole number
 * (default 0), port default 6379.
 *
 * @throws {OptionsError} (option `store`) naming the URL without its password and what was expected, for another
 *   scheme, a URL that does not parse, or a database that is not a whole number.
 * @example parseStoreUrl('redis://:secret@cache:6380/2').description // 'redis://cache:6380/2'
 */
export function parseStoreUrl(url: string): StoreUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OptionsError('store', `expected a redis:// or rediss:// URL (redis://host:6379/0), got ${redactUrlCredentials(JSON.stringify(url))}`);
  }
  const shown = withoutCredentials(parsed);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new OptionsError('store', `expected a redis:// or rediss:// URL (redis://host:6379/0), got ${shown}`);
  }
  if (parsed.hostname === '') throw new OptionsError('store', `expected a host in ${shown} (redis://host:6379/0)`);
  const path = parsed.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d+$/.test(path)) {
    throw new OptionsError('store', `the database of ${shown} must be a whole number (redis://host:6379/0), got "${path}"`);
  }
  const port = parsed.port === '' ? DEFAULT_PORT : Number(parsed.port);
  return {
    url,
    tls: parsed.protocol === 'rediss:',
    description: `${parsed.protocol}//${parsed.hostname}:${port}/${path === '' ? 0 : Number(path)}`,
  };
}

/** `url` as text without user and password (for messages about a URL that is refused). */
function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
