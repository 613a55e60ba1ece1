/**
 * Generators of request targets: the documented paths (`/api/v1/audio/speech`, `/api/v1/model/{author}/{slug}`
 * with variant suffixes; those of the discovery reads are in `discovery-requests.ts`) and their neighbors: wrong
 * case, doubled slashes, dot segments, percent-encoding that is valid, broken or not UTF-8, unicode, very long
 * segments, junk queries. The routes are those of `src/core/http/routes.ts`; the variants those of
 * `src/core/catalog/variants.ts`.
 *
 * @module
 */
import fc from 'fast-check';
import { VARIANTS } from '../../../src/core/catalog/variants.js';
import { aliasIds, baseIds } from './fixtures.js';
import { anyText } from './values.js';

/** Pieces of path segments: plain text, percent-encoding (valid, broken, invalid UTF-8), dots, slashes, unicode. */
const SEGMENT_PIECES = ['a', 'z', '0', '9', '-', '_', '.', '~', ':', '@', '+', '=', '&', ';', ',', '$', '!', '*', "'", '(', ')', '%', '%zz', '%2', '%C3%28', '%E2%82', '%FF', '%C0%AF', '%ED%A0%80', '%00', '%2F', '%2f', '%3A', '%3a', '%25', '%20', '%2e', '%2E%2E', '%7E', '..', '/', '//', ' ', '\\', '?', '#', 'é', '日本', '😀', '\ud800', '\u0001', '\t', '"', '<', '>', '`', '{', '}', '|', '^', '[', ']'];
/** Path segment junk: up to six {@link SEGMENT_PIECES} joined. */
export const segmentJunk: fc.Arbitrary<string> = fc.array(fc.constantFrom(...SEGMENT_PIECES), { minLength: 0, maxLength: 6 }).map((p) => p.join(''));
const longSegment = fc.tuple(fc.constantFrom('a', '%41', 'é', '.'), fc.constantFrom(300, 4_000, 9_000, 20_000)).map(([c, n]) => c.repeat(n));

/** Query strings (with their `?`): empty, junk, broken percent-encoding, a 3,000-character value. */
export const junkQuery: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?', '?a=1', '?id=x', '?%zz', '?&&', '?a=%C3%28', '?model=openai/gpt-4o', '?x=' + 'q'.repeat(3000)),
  segmentJunk.map((q) => `?${q}`),
);

/** Junk after a route: slashes, dot segments, an encoded slash, an extension, a space, a query or fragment mark. */
export const ROUTE_JUNK = fc.constantFrom('/', '//', '/.', '/..', '/x', '%2F', ';x', '.json', '%20', '?', '#x', '/./', '//x');

/** `/api/v1` + `rest`, sometimes behind a mis-cased, doubled or dot-segmented prefix. */
export function prefixedPath(rest: string): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(`/api/v1${rest}`), weight: 20 },
    {
      arbitrary: fc.constantFrom('/api/v1/', '/API/v1', '/api/V1', '/api/v1/.', '/api/v2', '/api//v1', '/api/v1/x/..', '/api/v1%2F', '/api/v1/%2e%2e/v1', '/api/v1/../v1'),
      weight: 2,
    },
  ).map((prefix) => (prefix.startsWith('/api/v1') && prefix.endsWith(rest) ? prefix : `${prefix}${rest}`));
}

/** Speech targets: mostly the documented path, else trailing junk, encoded or mis-cased segments, dot segments. */
export const speechTarget: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant('/api/v1/audio/speech'), weight: 40 },
  { arbitrary: fc.constant('/api/v1/audio/speech/'), weight: 2 },
  { arbitrary: fc.tuple(prefixedPath('/audio/speech'), ROUTE_JUNK).map(([p, j]) => p + j), weight: 2 },
  {
    arbitrary: fc.constantFrom('/api/v1/audio/%73peech', '/api/v1/audio/Speech', '/api/v1/audio//speech', '/api/v1/audio/../audio/speech', '/api/v1/audio/speech%00', '/api/v1/audio/speech/..', '/api/v1/audio', '/api/v1/audio/speeches', '/api/v1/audio/speech' + '/x'.repeat(2000)),
    weight: 2,
  },
  { arbitrary: fc.tuple(fc.constant('/api/v1/audio/'), segmentJunk).map(([p, j]) => p + j), weight: 1 },
);

/** The `{author}` and `{slug}` segments of a model path: known ids and aliases, junk, long or any text. */
export const modelAuthorSlug: fc.Arbitrary<[string, string]> = fc.oneof(
  { arbitrary: fc.constantFrom(...baseIds, ...aliasIds).map((id) => id.split('/') as [string, string]), weight: 20 },
  { arbitrary: fc.tuple(segmentJunk, segmentJunk), weight: 8 },
  { arbitrary: fc.tuple(fc.constantFrom('openai', '~openai', 'anthropic', 'OpenAI', '', '%7Eanthropic'), segmentJunk), weight: 4 },
  { arbitrary: fc.tuple(longSegment, fc.constantFrom('gpt-4o', '')), weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom('openai', 'google'), longSegment), weight: 1 },
  { arbitrary: fc.tuple(anyText(8), anyText(8)), weight: 4 },
);

/** Variant suffixes: known, unknown, doubled, encoded colon. */
export const variantSuffix = fc.oneof(
  { arbitrary: fc.constant(''), weight: 8 },
  { arbitrary: fc.tuple(fc.constantFrom(':', '%3A', '%3a'), fc.constantFrom(...VARIANTS)).map(([c, v]) => c + v), weight: 5 },
  { arbitrary: fc.constantFrom(':', ':Free', ':bogus', ':free:nitro', '%3Afree%3Anitro', ':free%00', '%3', ':%66ree', '::free', ':free/', '%253Afree'), weight: 2 },
);

/** Model lookup targets: known ids and aliases, junk segments, variant suffixes, extra segments, junk queries. */
export const modelTarget: fc.Arbitrary<string> = fc
  .record({
    prefix: fc.oneof({ arbitrary: fc.constant('/api/v1/model/'), weight: 30 }, { arbitrary: fc.constantFrom('/api/v1/models/', '/api/v1//model/', '/api/v1/model//', '/api/v1/MODEL/', '/api/v1/model/./', '/api/v1/x/../model/', '/api/v1/%6Dodel/'), weight: 2 }),
    authorSlug: modelAuthorSlug,
    suffix: variantSuffix,
    extra: fc.oneof({ arbitrary: fc.constant(''), weight: 20 }, { arbitrary: ROUTE_JUNK, weight: 2 }, { arbitrary: fc.constantFrom('/extra', '/a/b', '/', '/..', '/../x'), weight: 1 }),
    query: fc.oneof({ arbitrary: fc.constant(''), weight: 10 }, { arbitrary: junkQuery, weight: 1 }),
    shape: fc.oneof({ arbitrary: fc.constant('full'), weight: 30 }, { arbitrary: fc.constantFrom('author-only', 'empty-author', 'empty-slug', 'nothing'), weight: 1 }),
  })
  .map(({ prefix, authorSlug: [author, slug], suffix, extra, query, shape }) => {
    const path =
      shape === 'author-only' ? `${prefix}${author}` : shape === 'empty-author' ? `${prefix}/${slug}` : shape === 'empty-slug' ? `${prefix}${author}/` : shape === 'nothing' ? prefix : `${prefix}${author}/${slug}${suffix}${extra}`;
    return path + query;
  });

