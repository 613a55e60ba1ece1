/**
 * Property-based fuzzing of the in-process mode (msw `setupServer` with the handlers): ≥ 10,000 generated
 * requests per operation (`FUZZ_RUNS` overrides), fixed seed (`FUZZ_SEED` overrides). Every answer must be a
 * documented success or a well-formed envelope (see `support/fuzz.ts` for the oracle and the reference model).
 *
 * The standalone server has its own file: while `setupServer` listens, its handlers would also answer requests
 * meant for a server on another origin.
 *
 * The `bug:` tests at the end pin down, with minimal inputs, what the properties found; they fail until fixed
 * (the properties count those symptoms instead of stopping on them; `FUZZ_STRICT=1` makes them fail too).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockRouter, type MockRouter } from '../src/index.js';
import fc from 'fast-check';
import { GenerationIds, PROPERTY_TIMEOUT_MS, RUNS, SEED, fetchTransport, fuzz, generationRequest, modelRequest, primeGenerations, speechRequest } from './support/fuzz.js';

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

describe('fuzz (msw)', () => {
  let mock: MockRouter;
  let server: ReturnType<typeof setupServer>;
  const transport = fetchTransport();
  const known = new GenerationIds();

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    mock = createMockRouter({ seed: 11 });
    server = mock.attach(setupServer(...mock.handlers));
    // Requests outside the handlers' paths are not the gateway's: they fail (a network error), as documented.
    server.listen({ onUnhandledRequest: 'error' });
    // ... and msw says so on the console each time; keep the output readable.
    const consoleError = console.error.bind(console);
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (/\[MSW\]/.test(String(args[0])) || args[0] instanceof URIError) return;
      consoleError(...args);
    });
    await primeGenerations(transport, known);
  });
  afterAll(() => {
    server?.close();
    vi.restoreAllMocks();
    process.off('unhandledRejection', onRejection);
  });

  it(`speech: ${RUNS} generated requests`, async () => {
    const stats = await fuzz({ arbitrary: speechRequest, transport, gateway: mock.gateway, known });
    console.log(stats.summary('msw speech'));
    // The generators must reach both sides: real successes and many kinds of errors.
    expect(stats.ok).toBeGreaterThan(RUNS * 0.02);
    expect(stats.statuses.size).toBeGreaterThanOrEqual(RUNS >= 1000 ? 8 : 2);
  }, PROPERTY_TIMEOUT_MS);

  it(`model lookup: ${RUNS} generated requests`, async () => {
    const stats = await fuzz({ arbitrary: modelRequest, transport, gateway: mock.gateway, known });
    console.log(stats.summary('msw model'));
    expect(stats.ok).toBeGreaterThan(RUNS * 0.1);
  }, PROPERTY_TIMEOUT_MS);

  it(`generation lookup: ${RUNS} generated requests`, async () => {
    const stats = await fuzz({ arbitrary: generationRequest(known), transport, gateway: mock.gateway, known });
    console.log(stats.summary('msw generation'));
    expect(stats.ok).toBeGreaterThan(RUNS * 0.1);
  }, PROPERTY_TIMEOUT_MS);

  it('had no unhandled rejection', () => {
    expect(rejections).toEqual([]);
  });

  describe('bugs found by the fuzzer (msw)', () => {
    it('bug: a path with broken percent-encoding gets msw\u2019s 500 with a URIError stack, not the envelope', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/api/v1/audio/%2', '/api/v1/model/openai/%zz', '/api/v1/model/openai/gpt-4o%E2%82', '/api/v1/generation%'), async (path) => {
          const res = await fetch(`https://openrouter.ai${path}`, { headers: { Authorization: 'Bearer sk-bug' }, signal: AbortSignal.timeout(5_000) });
          const body = await res.text();
          expect(res.status).not.toBe(500);
          expect(res.headers.get('content-type')).toBe('application/json');
          expect(JSON.parse(body).error.code).toBe(res.status);
        }),
        { numRuns: 4, seed: SEED },
      );
    });

    it('bug: a HEAD request is answered with the GET body', async () => {
      const res = await fetch('https://openrouter.ai/api/v1/model/openai/gpt-4o', { method: 'HEAD', headers: { Authorization: 'Bearer sk-bug' }, signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });
  });
});
