/**
 * Generators of request headers: bearer keys (valid, malformed, huge), `X-Mock-Status`, `X-Mock-Scenario`
 * (the built-in scenarios of `scenarios/` and hostile names), `X-Mock-Session`, content types and encodings,
 * and junk headers nothing reads. The header names and rules are those of docs/scenarios.md ("Per request: headers").
 *
 * @module
 */
import fc from 'fast-check';
import type { FuzzedOperation } from './request.js';
import { BUILTIN_SCENARIOS, isSlow } from './scenarios.js';
import { maybe } from './values.js';

/** Characters every HTTP client accepts in a header value (Node and fetch): tab, printable ASCII, latin-1. */
const headerChar = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 8 },
  { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 2 },
  { arbitrary: fc.constant(0x09), weight: 1 },
).map((code) => String.fromCharCode(code));

/** A header value of up to `maxLength` characters every HTTP client sends (tab, printable ASCII, latin-1). */
export const headerText = (maxLength = 40): fc.Arbitrary<string> => fc.string({ unit: headerChar, maxLength });

const KEYS = ['sk-fuzz-1', 'sk-fuzz-2', 'sk-fuzz-3', 'sk-or-v1-0123456789abcdef', 'k'];

const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constantFrom(...KEYS).map((k) => `Bearer ${k}`), weight: 30 },
  { arbitrary: headerText(30).filter((k) => k.trim() !== '').map((k) => `Bearer ${k}`), weight: 4 },
  { arbitrary: fc.constant(undefined), weight: 3 },
  {
    arbitrary: fc.constantFrom('', 'Bearer', 'Bearer ', 'Bearer \t ', 'bearer sk-fuzz-1', 'BEARER\tsk-fuzz-2', '  Bearer   sk-fuzz-3  ', 'Basic xyz', 'Basic c2stZnV6ejo=', 'Token sk', 'Bearer\u00a0sk', 'Bearersk', 'sk-fuzz-1', 'Bearer sk-fuzz-1, Bearer sk-fuzz-2'),
    weight: 6,
  },
  { arbitrary: headerText(60), weight: 2 },
  { arbitrary: fc.constantFrom(2_000, 9_000, 20_000).map((n) => `Bearer ${'k'.repeat(n)}`), weight: 1 },
);

const mockStatus: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 400, max: 599 }).map(String),
  fc.integer({ min: -1000, max: 100_000 }).map(String),
  fc.constantFrom(' 404 ', '\t503', '4e2', '0x190', '-500', '', '200', '302', '99999', '500.0', '+429', '429 429', '1e3', '0429'),
  headerText(12),
);

/** `X-Mock-Scenario` values: the built-in scenarios (but those that would slow `operation` down), padded, hostile. */
function scenarioName(operation: FuzzedOperation): fc.Arbitrary<string> {
  const loaded = BUILTIN_SCENARIOS.filter((name) => !isSlow(name, operation));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...loaded), weight: 6 },
    { arbitrary: fc.constantFrom(...loaded).map((n) => ` ${n}\t`), weight: 1 },
    {
      arbitrary: fc.constantFrom('../../etc/passwd', '/etc/passwd', '..\\..\\windows\\win.ini', 'scenarios/bad-gateway.yaml', 'bad-gateway.yaml', './server-error', 'BAD-GATEWAY', 'x-mock-status', '', 'file:///etc/passwd', '%2e%2e%2fetc', 'constructor', '__proto__', 'toString'),
      weight: 3,
    },
    { arbitrary: headerText(40), weight: 2 },
  );
}

const session = fc.oneof(headerText(30), fc.constantFrom('', ' ', 's-1', 'a'.repeat(500), '../../etc/passwd', '__proto__'));

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'text/plain',
  'text/plain; charset=latin1',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  '*/*',
  '',
  ';;;',
  'application/json;;',
  'application/json; charset=',
  'application/json; boundary="unterminated',
  '\tapplication/json',
  'json',
  '/',
];
const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 4 },
  { arbitrary: headerText(40), weight: 1 },
);

/** Names of extra headers nothing reads (the transports own Host, Content-Length, Connection...). */
export const junkHeaderName: fc.Arbitrary<string> = fc.stringMatching(/^x-fuzz-[a-z0-9-]{1,12}$/);

/**
 * The header lines of a request of `operation`, in order (a name may repeat): `Authorization`, `X-Mock-Status`,
 * `X-Mock-Scenario`, `X-Mock-Session`, `Content-Type` (mostly for speech), `Content-Encoding`, `Accept`, junk.
 */
export function headersArb(operation: FuzzedOperation): fc.Arbitrary<[string, string][]> {
  return fc
    .record({
      authorization,
      status: maybe(fc.array(mockStatus, { minLength: 1, maxLength: 2 }), 8),
      scenario: maybe(fc.array(scenarioName(operation), { minLength: 1, maxLength: 2 }), 8),
      session: maybe(session, 25),
      contentType: maybe(contentType, operation === 'speech' ? 90 : 5),
      contentEncoding: maybe(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'zstd', 'x-junk', ''), 5),
      accept: maybe(fc.constantFrom('application/json', 'audio/mpeg', 'text/html', '*/*', ''), 10),
      junk: fc.array(fc.tuple(junkHeaderName, headerText(40)), { maxLength: 2 }),
    })
    .map(({ authorization: auth, status, scenario, session: sess, contentType: ct, contentEncoding, accept, junk }) => {
      const out: [string, string][] = [];
      if (auth !== undefined) out.push(['Authorization', auth]);
      for (const value of status ?? []) out.push(['X-Mock-Status', value]);
      for (const value of scenario ?? []) out.push(['X-Mock-Scenario', value]);
      if (sess !== null) out.push(['X-Mock-Session', sess]);
      if (ct !== null) out.push(['Content-Type', ct]);
      if (contentEncoding !== null) out.push(['Content-Encoding', contentEncoding]);
      if (accept !== null) out.push(['Accept', accept]);
      out.push(...junk);
      return out;
    });
}
