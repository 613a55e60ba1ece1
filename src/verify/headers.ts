/**
 * The response headers clients read, compared between the two sides of `mockrouter verify`:
 * `Content-Type`, the format of `X-Generation-Id` and whether `Retry-After` is there. Sources: docs/behaviour.md,
 * "Speech" (the content types, `X-Generation-Id: gen-tts-<unix seconds>-<suffix>`) and "Rate limits"
 * (`Retry-After`).
 *
 * @module
 */

/** A header that differs: its name and what each side has. */
export interface HeaderDifference {
  readonly name: string;
  readonly upstream: string;
  readonly mockrouter: string;
}

/**
 * The `Content-Type` a client acts on: for `audio/*` the whole value, lower case and without spaces (PCM's `rate`
 * and `channels` tell a client how to play it); for anything else the media type alone (a `charset` changes no
 * client). `absent` when there is none.
 *
 * @example contentTypeOf('application/json; charset=utf-8') // 'application/json'
 */
export function contentTypeOf(value: string | undefined): string {
  if (value === undefined) return 'absent';
  const compact = value.toLowerCase().replace(/\s+/g, '');
  return compact.startsWith('audio/') ? compact : compact.split(';')[0]!;
}

/**
 * The format of a generation id, its values replaced: `-`-separated parts of digits become `<n digits>`, parts of
 * 12 or more letters and digits `<n alphanumerics>`, the rest stays as it is. `absent` when there is none.
 *
 * @example generationIdFormat('gen-tts-1795568241-sD6nb04CYgypb8Nq8qNF') // 'gen-tts-<10 digits>-<20 alphanumerics>'
 */
export function generationIdFormat(value: string | undefined): string {
  if (value === undefined) return 'absent';
  return value
    .split('-')
    .map((part) => (/^\d+$/.test(part) ? `<${part.length} digits>` : /^[A-Za-z0-9]{12,}$/.test(part) ? `<${part.length} alphanumerics>` : part))
    .join('-');
}

/**
 * How the headers clients read differ between two answers (lower-case header names): `Content-Type` by
 * {@link contentTypeOf}, `X-Generation-Id` by {@link generationIdFormat} (when either side sends one), `Retry-After`
 * by presence.
 */
export function compareHeaders(upstream: Readonly<Record<string, string>>, mockrouter: Readonly<Record<string, string>>): HeaderDifference[] {
  const differences: HeaderDifference[] = [];
  const pairs: [string, string, string][] = [
    ['Content-Type', contentTypeOf(upstream['content-type']), contentTypeOf(mockrouter['content-type'])],
    ['X-Generation-Id', generationIdFormat(upstream['x-generation-id']), generationIdFormat(mockrouter['x-generation-id'])],
    ['Retry-After', upstream['retry-after'] === undefined ? 'absent' : 'present', mockrouter['retry-after'] === undefined ? 'absent' : 'present'],
  ];
  for (const [name, u, m] of pairs) if (u !== m) differences.push({ name, upstream: u, mockrouter: m });
  return differences;
}
