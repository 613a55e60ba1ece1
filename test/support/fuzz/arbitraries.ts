/**
 * The request generators of the fuzz suites, one per operation: speech (`createAudioSpeech`), model lookup
 * (`getModel`) and generation lookup (`getGeneration`), built from the targets (`targets.ts`), headers
 * (`headers.ts`) and bodies (`bodies.ts`) generators. Mostly the documented method; sometimes any other.
 *
 * @module
 */
import fc from 'fast-check';
import { speechBody, validSpeech } from './bodies.js';
import type { GenerationIds } from './fixtures.js';
import { headersArb } from './headers.js';
import { json, withToString, type FuzzRequest } from './request.js';
import { junkQuery, modelTarget, segmentJunk, speechTarget } from './targets.js';
import { anyText, maybe } from './values.js';

const otherMethod = fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');

/** Speech requests: any body, optionally sent chunked (the standalone transport honors it). */
export const speechRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.oneof({ arbitrary: fc.constant('POST'), weight: 30 }, { arbitrary: otherMethod, weight: 1 }),
    target: speechTarget,
    query: fc.oneof({ arbitrary: fc.constant(''), weight: 20 }, { arbitrary: junkQuery, weight: 1 }),
    headers: headersArb('speech'),
    body: speechBody,
    chunked: fc.boolean(),
  })
  .map(({ method, target, query, headers, body, chunked }) =>
    withToString({ operation: 'speech', kind: body.kind, method, target: target + query, headers, body: body.bytes, chunked: chunked && body.bytes !== undefined && body.bytes.byteLength > 1 }),
  );

/** Model lookups: a body only for methods other than GET and HEAD. */
export const modelRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.oneof({ arbitrary: fc.constant('GET'), weight: 30 }, { arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), weight: 1 }),
    target: modelTarget,
    headers: headersArb('model'),
    body: maybe(fc.oneof(validSpeech.map(json), fc.uint8Array({ maxLength: 40 })), 30),
  })
  .map(({ method, target, headers, body }) =>
    withToString({ operation: 'model', kind: 'model', method, target, headers, body: method === 'GET' || method === 'HEAD' ? undefined : (body ?? undefined) }),
  );

/**
 * Generation lookups: the `id` of a record `known` has (as is, encoded, altered), junk ids, missing, repeated
 * or surrounded by junk parameters.
 */
export function generationRequest(known: GenerationIds): fc.Arbitrary<FuzzRequest> {
  const knownId = fc.nat().map((n) => known.pick(n));
  const idValue = fc.oneof(
    { arbitrary: knownId, weight: 10 },
    { arbitrary: knownId.map((id) => encodeURIComponent(id)), weight: 1 },
    { arbitrary: knownId.map((id) => id.split('').map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')), weight: 1 },
    { arbitrary: knownId.chain((id) => fc.constantFrom(id.toUpperCase(), id.toLowerCase(), ` ${id}`, `${id}+`, `${id}%20`, id.slice(0, -1), `${id}x`, `${id}%00`, `${id}#x`)), weight: 3 },
    { arbitrary: fc.constantFrom('', '%', '%zz', '%C3%28', '%00', '%ED%A0%80', '+', '%2B', 'gen-', 'gen-tts-', 'null', 'undefined', '../../etc/passwd', '__proto__', 'constructor', 'toString', '😀', 'é', '\ud800', '日本'), weight: 4 },
    { arbitrary: segmentJunk, weight: 4 },
    { arbitrary: anyText(30), weight: 2 },
    { arbitrary: fc.constantFrom(300, 4_000, 9_000, 20_000).map((n) => 'g'.repeat(n)), weight: 1 },
  );
  const query = fc.oneof(
    { arbitrary: idValue.map((id) => `id=${id}`), weight: 20 },
    { arbitrary: fc.constantFrom('', 'id', 'id=', 'ID=x', 'id%3Dx', '&', '&&id=', '=', 'foo=bar', '?id=', 'id[]=x', 'id.x=1'), weight: 3 },
    { arbitrary: fc.tuple(idValue, idValue).map(([a, b]) => `id=${a}&id=${b}`), weight: 2 },
    { arbitrary: fc.tuple(idValue, segmentJunk).map(([id, junk]) => `${junk}&id=${id}&${junk}`), weight: 2 },
    { arbitrary: fc.tuple(idValue, segmentJunk).map(([id, junk]) => `id=${id};${junk}`), weight: 1 },
  );
  const path = fc.oneof(
    { arbitrary: fc.constant('/api/v1/generation'), weight: 30 },
    { arbitrary: fc.constantFrom('/api/v1/generation/', '/api/v1/generations', '/api/v1//generation', '/api/v1/Generation', '/api/v1/generation/x', '/api/v1/generation%2F', '/api/v1/x/../generation', '/api/v1/generation/.'), weight: 2 },
  );
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant('GET'), weight: 30 }, { arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), weight: 1 }),
      path,
      query: maybe(query, 95),
      headers: headersArb('generation'),
    })
    .map(({ method, path: p, query: q, headers }) => withToString({ operation: 'generation', kind: q === null ? 'no-query' : 'generation', method, target: q === null ? p : `${p}?${q}`, headers }));
}
