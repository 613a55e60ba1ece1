/**
 * Raw-socket fuzzing of the standalone server: bytes written to a fresh TCP connection (random bytes, random
 * HTTP-ish text, and HTTP/1.1 requests with broken methods, targets, versions, header lines and body framing),
 * and the oracle of what comes back: the connection closes, and whatever was sent back is a sequence of HTTP
 * responses, each a success, a `100 Continue` or the gateway's envelope (docs/api.md "Auth and HTTP errors").
 *
 * @module
 */
import { connect as connectTcp } from 'node:net';
import fc from 'fast-check';
import { headerText, junkHeaderName } from './headers.js';
import { OracleError, STACK } from './oracle.js';
import { isObject, latin1 } from './request.js';
import { segmentJunk } from './targets.js';
import { errorText } from './transports.js';

/** One generated raw request: bytes written to a fresh TCP connection, then half-closed. */
export interface RawCase {
  kind: string;
  bytes: Uint8Array;
}

/** A raw case printed by fast-check as its kind and its first 600 bytes. */
function rawCase(kind: string, bytes: Uint8Array): RawCase {
  const c = { kind, bytes };
  Object.defineProperty(c, fc.toStringMethod, { value: () => `[${kind}] ${JSON.stringify(latin1(bytes, 600))}${bytes.byteLength > 600 ? `…(${bytes.byteLength} B)` : ''}`, enumerable: false });
  return c;
}

const RAW_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
const RAW_BAD_METHODS = ['get', 'G ET', '', 'FOO', 'TRACE', 'PRI', 'CONNECT', 'GET\u0000', 'POST\u007f', 'ÄÖÜ'];
const RAW_TARGETS = [
  '/api/v1/audio/speech',
  '/api/v1/model/openai/gpt-4o',
  '/api/v1/model/openai/gpt-4o%3Afree',
  '/api/v1/generation?id=gen-1773480413-MockrouterFixture001',
  '/api/v1/generation?id=%zz',
  '/__mock/health',
  '/__mock/requests',
  '/__mock/clock',
  '/__mock/nope',
  '/',
  '*',
  'http://127.0.0.1/api/v1/model/openai/gpt-4o',
  '//',
  '/%zz',
  '/api/v1/model/%ED%A0%80/x',
  '/api/v1/model/openai/../../../etc/passwd',
];
const RAW_BAD_TARGETS = ['', ' ', '/a b', '/\u0000', '/é', '/\u007f', `/api/v1/model/openai/${'a'.repeat(17_000)}`];
const RAW_VERSIONS = ['HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', 'http/1.1', '', 'HTTP/1.1 extra', 'HTTP/1.', 'HTTP/11'];
const RAW_HEADER_LINES = [
  'Authorization: Bearer sk-raw',
  'Authorization:',
  'Content-Type: application/json',
  'Content-Type: ',
  'X-Mock-Status: 503',
  'X-Mock-Status: abc',
  'X-Mock-Scenario: ../../etc/passwd',
  'X-Mock-Scenario: not-found',
  'X-Mock-Scenario: connection-reset',
  'X-Mock-Session: s',
  'Connection: close',
  'Connection: keep-alive',
  'Connection: junk, , ,',
  'Upgrade: websocket',
  'Upgrade: h2c',
  'Expect: 100-continue',
  'Expect: junk',
  'Accept-Encoding: gzip',
  'X-Latin: é',
  'Host: second',
];
const RAW_BAD_HEADER_LINES = [
  'Bad Name: x',
  'X(): y',
  ': novalue',
  'NoColon',
  '\u0000X: y',
  'X-é: y',
  'X-Ctl: a\u0000b',
  'X-Ctl: a\u007fb',
  ' folded-continuation',
  '\tfolded-continuation',
  'Content-Length: -1',
  'Content-Length: abc',
  'Content-Length: 1e3',
  'Content-Length:  5 ',
  'Content-Length: 0x10',
  'Content-Length: 99999999999999999999',
  'Content-Length: 3, 4',
  'Transfer-Encoding: chunked',
  'Transfer-Encoding: gzip, chunked',
  'Transfer-Encoding: chunked, chunked',
  'Transfer-Encoding: xchunked',
  'Transfer-Encoding: identity',
  `X-Long: ${'v'.repeat(17_000)}`,
];
const RAW_BODIES = ['', '{}', '{"model":"openai/gpt-4o-mini-tts-2025-12-15","input":"Hi","voice":"alloy"}', '{"advance_ms":-1}', 'not json', '\u0000\u00ff\u00fe', '{"name":', 'x'.repeat(3000)];
const RAW_FRAMING = ['none', 'cl-short', 'cl-long', 'chunked', 'chunked-junk-size', 'chunked-no-end', 'chunked-extension', 'chunked-trailer', 'cl-and-chunked', 'cl-twice-differ'] as const;

/** HTTP-shaped requests: a method, target, version, Host, header lines, line ends, body framing, maybe a pipelined second request. */
const rawTemplate: fc.Arbitrary<RawCase> = fc
  .record({
    method: fc.oneof({ arbitrary: fc.constantFrom(...RAW_METHODS), weight: 8 }, { arbitrary: fc.constantFrom(...RAW_BAD_METHODS), weight: 1 }),
    target: fc.oneof({ arbitrary: fc.constantFrom(...RAW_TARGETS), weight: 8 }, { arbitrary: segmentJunk.map((j) => `/api/v1/model/${j}`), weight: 2 }, { arbitrary: fc.constantFrom(...RAW_BAD_TARGETS), weight: 1 }),
    version: fc.oneof({ arbitrary: fc.constant('HTTP/1.1'), weight: 12 }, { arbitrary: fc.constant('HTTP/1.0'), weight: 2 }, { arbitrary: fc.constantFrom(...RAW_VERSIONS), weight: 1 }),
    host: fc.oneof({ arbitrary: fc.constant('Host: 127.0.0.1'), weight: 8 }, { arbitrary: fc.constantFrom('', 'Host:', 'Host: a b', 'Host: \u0000'), weight: 1 }),
    headers: fc.array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...RAW_HEADER_LINES), weight: 8 },
        { arbitrary: fc.tuple(junkHeaderName, headerText(20)).map(([n, v]) => `${n}: ${v}`), weight: 2 },
        { arbitrary: fc.constantFrom(...RAW_BAD_HEADER_LINES), weight: 1 },
      ),
      { maxLength: 4 },
    ),
    eol: fc.oneof({ arbitrary: fc.constant('\r\n'), weight: 12 }, { arbitrary: fc.constantFrom('\n', '\r', '\n\r'), weight: 1 }),
    body: fc.oneof({ arbitrary: fc.constantFrom(...RAW_BODIES), weight: 3 }, { arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => latin1(b, 64)), weight: 1 }),
    framing: fc.oneof({ arbitrary: fc.constant('content-length' as const), weight: 10 }, { arbitrary: fc.constant('chunked' as const), weight: 3 }, { arbitrary: fc.constantFrom(...RAW_FRAMING), weight: 4 }),
    pipelined: fc.boolean(),
  })
  .map(({ method, target, version, host, headers, eol, body, framing, pipelined }) => {
    const lines = [`${method} ${target} ${version}`.trimEnd(), host, ...headers].filter((l) => l !== '');
    const n = Buffer.byteLength(body, 'latin1');
    const hex = n.toString(16);
    let payload = body;
    switch (framing) {
      case 'content-length':
        lines.push(`Content-Length: ${n}`);
        break;
      case 'cl-short':
        lines.push(`Content-Length: ${Math.max(0, n - 2)}`);
        break;
      case 'cl-long':
        lines.push(`Content-Length: ${n + 10}`);
        break;
      case 'chunked':
        lines.push('Transfer-Encoding: chunked');
        payload = n ? `${hex}${eol}${body}${eol}0${eol}${eol}` : `0${eol}${eol}`;
        break;
      case 'chunked-junk-size':
        lines.push('Transfer-Encoding: chunked');
        payload = `zz${eol}${body}${eol}-1${eol}FFFFFFFFFFFFFFFFFF${eol}`;
        break;
      case 'chunked-no-end':
        lines.push('Transfer-Encoding: chunked');
        payload = `${hex}${eol}${body}${eol}`;
        break;
      case 'chunked-extension':
        lines.push('Transfer-Encoding: chunked');
        payload = `${hex};a=b;c="d"${eol}${body}${eol}0;x${eol}${eol}`;
        break;
      case 'chunked-trailer':
        lines.push('Transfer-Encoding: chunked');
        payload = `${hex}${eol}${body}${eol}0${eol}X-Trailer: t${eol}Bad Trailer${eol}${eol}`;
        break;
      case 'cl-and-chunked':
        lines.push(`Content-Length: ${n}`, 'Transfer-Encoding: chunked');
        break;
      case 'cl-twice-differ':
        lines.push(`Content-Length: ${n}`, `Content-Length: ${n + 1}`);
        break;
      case 'none':
        break;
    }
    const one = `${lines.join(eol)}${eol}${eol}${payload}`;
    const text = pipelined ? `${one}GET /__mock/health HTTP/1.1${eol}Host: 127.0.0.1${eol}${eol}` : one;
    return rawCase(`template/${framing}`, Uint8Array.from(Buffer.from(text, 'latin1')));
  });

/** Raw requests: random bytes, random text, and HTTP-shaped requests with broken parts. */
export const rawRequest: fc.Arbitrary<RawCase> = fc.oneof(
  { arbitrary: fc.uint8Array({ maxLength: 600 }).map((b) => rawCase('random-bytes', b)), weight: 2 },
  { arbitrary: fc.string({ unit: fc.constantFrom('G', 'E', 'T', 'P', 'O', 'S', ' ', '/', 'a', ':', '\r', '\n', 'H', '1', '.', '0', '%', '\u0000', 'é'), maxLength: 120 }).map((t) => rawCase('random-http-ish', Uint8Array.from(Buffer.from(t, 'latin1')))), weight: 2 },
  { arbitrary: rawTemplate, weight: 12 },
);

/** What a raw connection gave back: the bytes, whether the server closed it, the socket's error if any. */
export interface RawOutcome {
  bytes: Buffer;
  closed: boolean;
  error?: string | undefined;
}

/**
 * Writes `bytes` to a new connection to `127.0.0.1:port`, half-closes it, and collects the answer until the
 * server closes it or `timeoutMs` milliseconds pass (then `closed` is false). Never rejects: a socket error is
 * reported in `error`.
 */
export function sendRaw(port: number, bytes: Uint8Array, timeoutMs = 4_000): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const socket = connectTcp(port, '127.0.0.1', () => socket.end(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed: false, error });
    }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e) => (error = errorText(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(chunks), closed: true, error });
    });
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Parses the HTTP/1.1 responses in `bytes` (Content-Length, chunked, or to the end); with `lenientBodies` (a
 * HEAD was sent) stops after the first final answer's head.
 *
 * @throws {OracleError} for anything that is not a sequence of complete HTTP/1.x responses.
 */
function parseResponses(bytes: Buffer, lenientBodies: boolean): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < bytes.byteLength) {
    const headEnd = bytes.indexOf('\r\n\r\n', at, 'latin1');
    if (headEnd < 0) throw new OracleError(`an answer without a complete head: ${JSON.stringify(bytes.subarray(at, at + 200).toString('latin1'))}`);
    const [statusLine, ...headerLines] = bytes.subarray(at, headEnd).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine!);
    if (!m) throw new OracleError(`not an HTTP/1.x status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(m[1]);
    at = headEnd + 4;
    if (status >= 100 && status < 200) {
      out.push({ status, headers, body: Buffer.alloc(0) });
      continue;
    }
    if (lenientBodies) {
      out.push({ status, headers, body: Buffer.alloc(0) });
      break; // a HEAD answer has a Content-Length but no body: stop at the first answer
    }
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = bytes.indexOf('\r\n', at, 'latin1');
        if (lineEnd < 0) throw new OracleError('a chunked answer cut short');
        const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) throw new OracleError('a chunked answer with a bad chunk size');
        at = lineEnd + 2;
        if (size === 0) {
          at += 2;
          break;
        }
        parts.push(bytes.subarray(at, at + size));
        at += size + 2;
      }
      out.push({ status, headers, body: Buffer.concat(parts) });
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (at + length > bytes.byteLength) throw new OracleError(`an answer cut short: ${bytes.byteLength - at} of ${length} bytes`);
      out.push({ status, headers, body: bytes.subarray(at, at + length) });
      at += length;
    } else {
      out.push({ status, headers, body: bytes.subarray(at) });
      at = bytes.byteLength;
    }
  }
  return out;
}

/**
 * The oracle of a raw connection: the server closes it (no hang); whatever it sent is a sequence of HTTP
 * responses, each a success, a `100 Continue`, or an envelope with the status as `error.code`; no 5xx unless
 * the request asked for one (`X-Mock-Status`). Node's own bare answers (400 without `Host`, 417 for an
 * unknown `Expect`) count as failures: the server answers those with the envelope too.
 *
 * @returns the statuses seen, in order.
 * @throws {OracleError} naming what was sent, what came back and what is wrong with it.
 */
export function checkRaw(c: RawCase, outcome: RawOutcome): number[] {
  const fail = (problem: string): never => {
    throw new OracleError(`${problem}\n  sent: ${String((c as unknown as { [fc.toStringMethod]: () => string })[fc.toStringMethod]())}\n  got: ${JSON.stringify(outcome.bytes.subarray(0, 600).toString('latin1'))}${outcome.error ? ` (${outcome.error})` : ''}`);
  };
  if (!outcome.closed) fail('the server neither answered fully nor closed the connection within 4 s');
  const sent = Buffer.from(c.bytes).toString('latin1');
  let responses: RawResponse[];
  try {
    responses = parseResponses(outcome.bytes, /HEAD/i.test(sent));
  } catch (error) {
    return fail((error as Error).message);
  }
  const statuses: number[] = [];
  for (const r of responses) {
    statuses.push(r.status);
    if (r.status === 100) continue;
    if (r.status === 200 || r.status === 204) continue;
    if (r.status < 400) fail(`status ${r.status}`);
    if (r.status >= 500 && !/x-mock-status/i.test(sent)) fail(`status ${r.status} that nothing asked for`);
    const type = r.headers['content-type'];
    if (/HEAD/i.test(sent)) continue;
    if (type !== 'application/json') fail(`status ${r.status} with content type ${JSON.stringify(type)}, not the envelope`);
    let envelope: unknown;
    try {
      envelope = JSON.parse(r.body.toString('utf8'));
    } catch {
      return fail(`status ${r.status} whose body is not JSON`);
    }
    if (!isObject(envelope) || !isObject(envelope.error)) return fail('not an envelope');
    const { code, message, metadata } = envelope.error;
    if (code !== r.status) fail(`error.code ${JSON.stringify(code)} ≠ status ${r.status}`);
    if (typeof message !== 'string' || message === '' || STACK.test(message)) fail('error.message is not a non-empty message without a stack');
    if (metadata !== null && !isObject(metadata)) fail('error.metadata is not an object or null');
  }
  return statuses;
}
