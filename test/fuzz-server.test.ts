/**
 * Property-based fuzzing of the standalone server (`startServer`): 2,000 generated requests per operation in
 * `npm test`, 10,000 in `npm run test:load` (speech, the model and generation lookups, the discovery and account
 * reads; the account reads also against a second server with a keys file; `FUZZ_RUNS` overrides;
 * `support/load-layer.ts`), fixed seed (`FUZZ_SEED` overrides), sent with `node:http` so the request target
 * reaches the server exactly as generated (no URL normalization: `..`, `//`, `%zz`, `#` go on the wire); then
 * raw bytes on TCP sockets (`FUZZ_RAW_RUNS`, 500 by default). Every answer must be a documented success or a
 * well-formed envelope (see `support/fuzz/oracle.ts` and `support/fuzz/raw-socket.ts`), and the same server
 * must stay healthy through all of it.
 * The properties shared with the other mode are in `support/fuzz/cases.ts`, run by `support/fuzz/suite.ts`.
 *
 * The `regression:` tests at the end pin down, with minimal inputs, bugs the properties found and that were fixed
 * (the properties fail on them too, but only when the generators happen to reach them).
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import type { FuzzKey } from './support/fuzz/discovery.js';
import { checkRaw, rawRequest, sendRaw } from './support/fuzz/raw-socket.js';
import { PROPERTY_TIMEOUT_MS, RAW_RUNS, SEED } from './support/fuzz/settings.js';
import { fuzzMode, type FuzzInstance } from './support/fuzz/suite.js';
import { httpTransport } from './support/fuzz/transports.js';
import { LOAD_TAG } from './support/load-layer.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const TTS_BODY = JSON.stringify({ model: TTS, input: 'Hi', voice: 'alloy' });

/** A standalone server on a free port, reached through {@link httpTransport}. */
async function serve(keys?: readonly FuzzKey[]): Promise<FuzzInstance & { server: RunningServer }> {
  const server = await startServer({ port: 0, seed: 11, ...(keys ? { keys } : {}) });
  const transport = httpTransport(server.port);
  return {
    server,
    transport,
    gateway: server.gateway,
    async close() {
      transport.close();
      await server.close();
    },
  };
}

describe('fuzz (server)', { tags: [LOAD_TAG] }, () => {
  const suite = fuzzMode({ name: 'server', start: () => serve(), startKeyed: (keys) => serve(keys) });
  const server = (): RunningServer => suite.instance().server;

  it(`raw sockets: ${RAW_RUNS} malformed requests`, async () => {
    const statuses = new Map<string, number>();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(rawRequest, async (c) => {
        const outcome = await sendRaw(server().port, c.bytes);
        const seen = checkRaw(c, outcome);
        const key = seen.length ? seen.join('+') : 'closed';
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
      { numRuns: RAW_RUNS, seed: SEED },
    );
    const sorted = [...statuses].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}:${n}`).join(' ');
    console.log(`server raw: ${RAW_RUNS} connections in ${((performance.now() - started) / 1000).toFixed(1)} s; answers ${sorted}`);
    expect(statuses.size).toBeGreaterThan(3);
  }, PROPERTY_TIMEOUT_MS);

  it('is still healthy and answering after all of it, with no unhandled rejection', async () => {
    const health = await fetch(`${server().url}/__mock/health`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const model = await fetch(`${server().baseUrl}/model/openai/gpt-4o`, { headers: { Authorization: 'Bearer sk-after' }, signal: AbortSignal.timeout(5_000) });
    expect(model.status).toBe(200);
    expect((await model.json()).data.id).toBe('openai/gpt-4o');
    const speech = await postSpeech(server().baseUrl, TTS_BODY, { Authorization: 'Bearer sk-after' }, { signal: AbortSignal.timeout(5_000) });
    expect(speech.status).toBe(200);
    expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const journal = await fetch(`${server().url}/__mock/requests`, { signal: AbortSignal.timeout(5_000) });
    expect(journal.status).toBe(200);
    expect(Array.isArray((await journal.json()).requests)).toBe(true);
    expect(suite.rejections).toEqual([]);
  });

  describe('regressions (server)', () => {
    it('regression: a body whose Content-Type is not type/subtype reaches the gateway (no 415 before it, as in-process)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('', 'json', ';', '/'), async (contentType) => {
          const res = await send(server().port, 'POST', '/api/v1/audio/speech', { Authorization: 'Bearer sk-bug', 'Content-Type': contentType, 'Content-Length': String(TTS_BODY.length) }, TTS_BODY);
          expect(res).toMatchObject({ status: 200, type: 'audio/pcm;rate=24000;channels=1' });
        }),
        { numRuns: 4, seed: SEED },
      );
    });

    it('regression: an HTTP/1.1 request without Host gets the envelope, not Node\u2019s bare 400 (empty body, no content type)', async () => {
      const outcome = await sendRaw(server().port, Buffer.from('GET /api/v1/model/openai/gpt-4o HTTP/1.1\r\n\r\n'));
      expectEnvelope(outcome.bytes, 400);
    });

    it('regression: Expect with anything but 100-continue gets the envelope, not Node\u2019s bare 417 (empty body)', async () => {
      const outcome = await sendRaw(server().port, Buffer.from('GET /api/v1/model/openai/gpt-4o HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nExpect: junk\r\n\r\n'));
      expectEnvelope(outcome.bytes, 417);
    });

    it('regression: the HTTP layer\u2019s 431 to a HEAD request has no body (which clients would reject)', async () => {
      const res = await send(server().port, 'HEAD', `/api/v1/model/openai/${'a'.repeat(17_000)}`, { Authorization: 'Bearer sk-bug' });
      expect(res).toMatchObject({ status: 431, text: '' });
    });

    it('regression: a HEAD request that gets the gateway\u2019s error has no body', async () => {
      const res = await send(server().port, 'HEAD', '/api/v1/model/openai/no-such-model', { Authorization: 'Bearer sk-bug' });
      expect(res).toMatchObject({ status: 404, type: 'application/json', text: '' });
    });
  });
});

/** Sends one request to `127.0.0.1:port` with Node's client and reads the answer (or the client's error). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; type: string | undefined; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, signal: AbortSignal.timeout(5_000) }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], text }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => resolve({ error: `${(e as NodeJS.ErrnoException).code}: ${e.message}` }));
    req.end(body);
  });
}

/** An envelope answer: JSON, `error.code` equal to the status. */
function expectEnvelope(bytes: Buffer | string, status: number) {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(head).toMatch(/\r\ncontent-type: application\/json/i);
  const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  expect(body.error.code).toBe(status);
}
