/**
 * The request generators of the discovery and account reads, one per operation: `getModels`
 * (`GET /api/v1/models`, with queries of valid, malformed and undecided values), `listModelsCount`
 * (`GET /api/v1/models/count`), `listEndpoints` (`GET /api/v1/models/{author}/{slug}/endpoints`: known ids,
 * variants, aliases, unknown ids, broken percent-encoding, too few or too many segments), `getCurrentKey`
 * (`GET /api/v1/key`) and `getCredits` (`GET /api/v1/credits`). Each path comes with its neighbors (trailing
 * slash, wrong case, extra or encoded segments); mostly GET, sometimes HEAD or another method; headers from
 * `headers.ts`.
 *
 * @module
 */
import fc from 'fast-check';
import type { DiscoveryOperation } from './discovery.js';
import { headersArb } from './headers.js';
import { withToString, type FuzzRequest } from './request.js';
import { junkQuery, modelAuthorSlug, prefixedPath, ROUTE_JUNK, variantSuffix } from './targets.js';
import { maybe } from './values.js';

const method = fc.oneof(
  { arbitrary: fc.constant('GET'), weight: 30 },
  { arbitrary: fc.constant('HEAD'), weight: 2 },
  { arbitrary: fc.constantFrom('POST', 'DELETE'), weight: 2 },
  { arbitrary: fc.constantFrom('PUT', 'PATCH', 'OPTIONS'), weight: 1 },
);

/** `/api/v1` + `rest` (`/models`, `/key`...): mostly as documented, else a trailing slash, a neighbor, junk. */
function readPath(rest: string, neighbors: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(`/api/v1${rest}`), weight: 30 },
    { arbitrary: fc.constant(`/api/v1${rest}/`), weight: 2 },
    { arbitrary: fc.constantFrom(...neighbors), weight: 3 },
    { arbitrary: fc.tuple(prefixedPath(rest), ROUTE_JUNK).map(([p, j]) => p + j), weight: 1 },
    { arbitrary: prefixedPath(rest), weight: 1 },
  );
}

/** `getModels` query values per parameter: valid ones, and malformed or undecided ones. */
const VALUES: Record<string, { valid: string[]; other: string[] }> = {
  limit: { valid: ['1', '2', '5', '1000', '%31'], other: ['0', '1001', 'abc', '-1', '1.5', '', '1e2', '+3'] },
  offset: { valid: ['0', '2', '10', '40'], other: ['-1', 'x', '2.5', ''] },
  output_modalities: { valid: ['text', 'speech', 'all', 'embeddings', 'image', 'text,speech', 'speech,embeddings', 'text%2Cspeech'], other: ['foo', 'text,foo', 'Speech', 'text,', '', 'all,text', 'text,+speech', '%zz'] },
  sort: { valid: ['newest', 'pricing-low-to-high', 'context-high-to-low', 'most-popular', 'throughput-high-to-low', 'latency-low-to-high'], other: ['bogus', 'NEWEST', '', 'newest%00'] },
  context: { valid: ['0', '1000', '200000', '1000000'], other: ['x', '-5', '1.5', ''] },
  min_price: { valid: ['0', '1', '0.5', '10'], other: ['-1', 'x', '.5', ''] },
  max_price: { valid: ['0.2', '1', '100'], other: ['-1', 'cheap'] },
  q: { valid: ['gpt', 'GPT', 'tts', 'zzz', '%20', '%C3%A9'], other: ['', '%zz', '%C3%28'] },
};

/** One `name=value` of {@link VALUES}, mostly a valid value. */
const modelsParam = fc
  .constantFrom(...Object.keys(VALUES))
  .chain((name) => fc.oneof({ arbitrary: fc.constantFrom(...VALUES[name]!.valid), weight: 4 }, { arbitrary: fc.constantFrom(...VALUES[name]!.other), weight: 1 }).map((v) => `${name}=${v}`));

/** `getModels` queries (with their `?`): none, one to three parameters, a parameter among junk, junk. */
const modelsQuery: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 6 },
  { arbitrary: fc.array(modelsParam, { minLength: 1, maxLength: 3 }).map((ps) => `?${ps.join('&')}`), weight: 12 },
  { arbitrary: fc.tuple(modelsParam, fc.constantFrom('foo=bar', 'LIMIT=abc', 'limit%3Dabc', '&', 'x', 'output_modalities', 'limit', '=')).map(([p, junk]) => `?${junk}&${p}`), weight: 2 },
  { arbitrary: junkQuery, weight: 1 },
);

/** `GET /models` targets: the path and its neighbors, with a query. */
const modelsTarget = fc
  .tuple(
    readPath('/models', ['/api/v1/Models', '/api/v1/MODELS', '/api/v1/models//', '/api/v1//models', '/api/v1/model', '/api/v1/models.json', '/api/v1/models%2F', '/api/v1/%6Dodels', '/api/v1/models/x/..', '/api/v1/models/%20']),
    modelsQuery,
  )
  .map(([p, q]) => p + q);

/** `GET /models/count` targets: the path and its neighbors, with `output_modalities`, other parameters, junk. */
const countTarget = fc
  .tuple(
    readPath('/models/count', ['/api/v1/models/Count', '/api/v1/models/COUNT', '/api/v1/models/count/x', '/api/v1/models//count', '/api/v1/models/count%2F', '/api/v1/models/%63ount', '/api/v1/models/counts', '/api/v1/model/count', '/api/v1/models/count/endpoints', '/api/v1/models/count/count/endpoints']),
    fc.oneof({ arbitrary: fc.constant(''), weight: 4 }, { arbitrary: modelsQuery, weight: 6 }),
  )
  .map(([p, q]) => p + q);

/** Every character of `text` percent-encoded (`%6F%70...`), which decodes back to it. */
const encodeAll = (text: string) => [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** `GET /models/{author}/{slug}/endpoints` targets: the model segments of `targets.ts`, the tail and its neighbors. */
const endpointsTarget: fc.Arbitrary<string> = fc
  .record({
    prefix: fc.oneof({ arbitrary: fc.constant('/api/v1/models/'), weight: 30 }, { arbitrary: fc.constantFrom('/api/v1/model/', '/api/v1/Models/', '/api/v1/models//', '/api/v1//models/', '/api/v1/models/./'), weight: 2 }),
    authorSlug: modelAuthorSlug,
    encoded: fc.oneof({ arbitrary: fc.constant(false), weight: 12 }, { arbitrary: fc.constant(true), weight: 1 }),
    suffix: variantSuffix,
    tail: fc.oneof({ arbitrary: fc.constant('/endpoints'), weight: 30 }, { arbitrary: fc.constantFrom('/endpoints/', '/Endpoints', '/endpoint', '', '/endpoints/x', '/x/endpoints', '/endpoints%2F', '%2Fendpoints', '/endpoints/..', '/endpoints//'), weight: 3 }),
    shape: fc.oneof({ arbitrary: fc.constant('full'), weight: 30 }, { arbitrary: fc.constantFrom('author-only', 'empty-author', 'empty-slug', 'extra-segment', 'nothing'), weight: 2 }),
    query: fc.oneof({ arbitrary: fc.constant(''), weight: 10 }, { arbitrary: junkQuery, weight: 1 }),
  })
  .map(({ prefix, authorSlug: [author, slug], encoded, suffix, tail, shape, query }) => {
    const s = encoded ? encodeAll(slug) : slug;
    const path =
      shape === 'author-only'
        ? `${prefix}${author}${tail}`
        : shape === 'empty-author'
          ? `${prefix}/${s}${tail}`
          : shape === 'empty-slug'
            ? `${prefix}${author}/${tail}`
            : shape === 'extra-segment'
              ? `${prefix}${author}/${s}${suffix}/extra${tail}`
              : shape === 'nothing'
                ? `${prefix}${tail.replace(/^\//, '')}`
                : `${prefix}${author}/${s}${suffix}${tail}`;
    return path + query;
  });

/** `/key` and `/credits` targets: the path and its neighbors, sometimes a junk query (ignored). */
const accountTarget = (rest: string, neighbors: readonly string[]) =>
  fc.tuple(readPath(rest, neighbors), fc.oneof({ arbitrary: fc.constant(''), weight: 10 }, { arbitrary: junkQuery, weight: 1 })).map(([p, q]) => p + q);

/** Requests of `operation` to `target`: a small body only for methods other than GET and HEAD. */
function readRequest(operation: DiscoveryOperation, target: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ method, target, headers: headersArb(operation), body: maybe(fc.uint8Array({ maxLength: 40 }), 30) })
    .map(({ method: m, target: t, headers, body }) => withToString({ operation, kind: operation, method: m, target: t, headers, body: m === 'GET' || m === 'HEAD' ? undefined : (body ?? undefined) }));
}

/** `getModels` requests. */
export const modelsRequest: fc.Arbitrary<FuzzRequest> = readRequest('models', modelsTarget);
/** `listModelsCount` requests. */
export const modelsCountRequest: fc.Arbitrary<FuzzRequest> = readRequest('models-count', countTarget);
/** `listEndpoints` requests. */
export const endpointsRequest: fc.Arbitrary<FuzzRequest> = readRequest('endpoints', endpointsTarget);
/** `getCurrentKey` requests. */
export const keyRequest: fc.Arbitrary<FuzzRequest> = readRequest(
  'key',
  accountTarget('/key', ['/api/v1/Key', '/api/v1/keys', '/api/v1/key/x', '/api/v1/key%2F', '/api/v1//key', '/api/v1/key/..', '/api/v1/auth/key', '/api/v1/%6Bey', '/api/v1/key.json']),
);
/** `getCredits` requests. */
export const creditsRequest: fc.Arbitrary<FuzzRequest> = readRequest(
  'credits',
  accountTarget('/credits', ['/api/v1/Credits', '/api/v1/CREDITS', '/api/v1/credit', '/api/v1/credits/coinbase', '/api/v1/credits/x', '/api/v1//credits', '/api/v1/credits%2F', '/api/v1/%63redits']),
);
/** `getCurrentKey` and `getCredits` requests, for a gateway with a keys file. */
export const accountRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(keyRequest, creditsRequest);
