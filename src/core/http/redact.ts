/**
 * What never leaves the simulator in clear: credentials in request headers and in the query. The one place that
 * decides what a secret is, used by the journal (request headers and query, so the admin API and the dashboard
 * show only redacted values) and by the standalone server's request log line (its URL). The simulator's own rule
 * (docs/admin-api.md, "The journal"), not OpenRouter's.
 *
 * - Headers: `authorization`, `proxy-authorization`, `cookie`, `api-key`, `x-api-key`, `x-goog-api-key`,
 *   `x-mock-admin-token`, and any header whose name ends in `-key`, `-token` or `-secret`.
 * - Query parameters: `key`, `api_key`, `apikey`, `token`, `access_token`.
 *
 * Names are compared case-insensitively. A redacted value is {@link REDACTED_BEARER} when it was a bearer
 * credential (`Bearer <anything>`, so a reader still sees which scheme was sent), else {@link REDACTED}.
 *
 * @module
 */

/** Request headers as adapters hand them: Node's `IncomingHttpHeaders` or a plain record; names lower-case. */
export type HeaderValues = Readonly<Record<string, string | string[] | undefined>>;

/** What a redacted value reads as. */
export const REDACTED = '[redacted]';

/** What a redacted bearer credential (`Authorization: Bearer <key>`) reads as. */
export const REDACTED_BEARER = 'Bearer [redacted]';

/** Header names (lower-case) that always carry a credential. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'api-key',
  'x-api-key',
  'x-goog-api-key',
  'x-mock-admin-token',
]);

/** Endings of header names that carry a credential (`x-openrouter-key`, `x-auth-token`, `client-secret`). */
const SECRET_HEADER_ENDINGS = /-(?:key|token|secret)$/;

/** Query parameter names (lower-case) that carry a credential. */
const SECRET_PARAMS: ReadonlySet<string> = new Set(['key', 'api_key', 'apikey', 'token', 'access_token']);

/** Whether header `name` (any case) carries a credential, so its value is redacted. */
export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_HEADER_ENDINGS.test(lower);
}

/** Whether query parameter `name` (decoded, any case) carries a credential, so its value is redacted. */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.has(name.toLowerCase());
}

/** The redacted form of a credential `value`: {@link REDACTED_BEARER} for `Bearer <...>`, else {@link REDACTED}. */
function redactedValue(value: string): string {
  return /^bearer\s/i.test(value) ? REDACTED_BEARER : REDACTED;
}

/**
 * Copies `headers` into a plain object, credentials redacted (see the module's description). A header given
 * several times (an array) becomes one value joined with `, `; absent (`undefined`) ones are left out.
 *
 * @example redactHeaders({ authorization: 'Bearer sk-1', 'x-goog-api-key': 'k', accept: '*' })
 *   // { authorization: 'Bearer [redacted]', 'x-goog-api-key': '[redacted]', accept: '*' }
 */
export function redactHeaders(headers: HeaderValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = isSecretHeader(name) ? redactedValue(text) : text;
  }
  return out;
}

/**
 * The query parameters of a raw query (without `?`) as a record, decoded, the last value winning for a repeated
 * name, credentials' values {@link REDACTED} (see the module's description).
 *
 * @example redactQueryParams('id=gen-1&api_key=sk-1') // { id: 'gen-1', api_key: '[redacted]' }
 */
export function redactQueryParams(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (query === '') return out;
  for (const [name, value] of new URLSearchParams(query)) out[name] = isSecretParam(name) ? REDACTED : value;
  return out;
}

/** The decoded name of one raw `name=value` part of a query (`+` is a space), or the raw name when it is malformed. */
export function paramName(part: string): string {
  const eq = part.indexOf('=');
  const raw = (eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * `url` (a request target: path and optional query, as in the request line) with the values of credential query
 * parameters replaced by {@link REDACTED}; everything else is kept byte for byte, so a log line still shows the
 * URL as sent. A parameter without `=` has no value and is kept.
 *
 * @example redactUrl('/__mock/ui?x=1&token=s3cret') // '/__mock/ui?x=1&token=[redacted]'
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url.slice(q + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const eq = part.indexOf('=');
    if (eq === -1 || !isSecretParam(paramName(part))) continue;
    parts[i] = `${part.slice(0, eq)}=${REDACTED}`;
    changed = true;
  }
  return changed ? `${url.slice(0, q)}?${parts.join('&')}` : url;
}

/** A request target inside a message: a path from `/` with a query, up to white space or a quote. */
const URL_IN_TEXT = /\/[^\s'"`]*\?[^\s'"`]*/g;

/**
 * `text` (an error message that may quote the request's URL, such as the server's `'<url>' is not a valid url
 * component`) with each quoted request target passed through {@link redactUrl}.
 *
 * @example redactUrlsIn("'/__mock/ui%zz?token=s3cret' is not a valid url component")
 *   // "'/__mock/ui%zz?token=[redacted]' is not a valid url component"
 */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => redactUrl(url));
}

/**
 * `text` with the credentials of every URL in it shown as `***`: what stands between `//` and the last `@` of a
 * word (`redis://user:pa/ss@host` → `redis://***@host`), so a URL quoted in a message (one that does not even parse)
 * never shows a password, whatever characters it holds.
 *
 * @example redactUrlCredentials('got "redis://u:s3/cret@cache:6379/0"') // 'got "redis://***@cache:6379/0"'
 */
export function redactUrlCredentials(text: string): string {
  return text.replace(/\/\/[^\s'"]*@/g, '//***@');
}
