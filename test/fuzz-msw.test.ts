/**
 * Property-based fuzzing of the in-process mode (msw `setupServer` with the handlers): 2,000 generated requests per
 * operation in `npm test`, 10,000 in `npm run test:load` (`FUZZ_RUNS` overrides; `support/load-layer.ts`), fixed seed
 * (`FUZZ_SEED` overrides): speech, the model and generation lookups, the discovery reads (`/models`,
 * `/models/count`, `/models/{author}/{slug}/endpoints`) and the account reads (`/key`, `/credits`), these also
 * against a gateway with a keys file. Every answer must be a documented success or a well-formed envelope (see
 * `support/fuzz/oracle.ts` for the oracle and `support/fuzz/reference-model.ts` for the reference model).
 * The properties shared with the other mode are in `support/fuzz/cases.ts`, run by `support/fuzz/suite.ts`.
 *
 * The standalone server has its own file: while `setupServer` listens, its handlers would also answer requests
 * meant for a server on another origin.
 *
 * The `regression:` tests at the end pin down, with minimal inputs, bugs the properties found and that were fixed
 * (the properties fail on them too, but only when the generators happen to reach them).
 */
import { setupServer } from 'msw/node';
import { describe, expect, it, vi } from 'vitest';
import { createMockRouter } from '../src/index.js';
import fc from 'fast-check';
import { MSW_ORIGIN, SEED } from './support/fuzz/settings.js';
import { speechOutcome } from './support/fuzz/speech-oracle.js';
import { fuzzMode } from './support/fuzz/suite.js';
import { fetchTransport } from './support/fuzz/transports.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { LOAD_TAG } from './support/load-layer.js';

describe('fuzz (msw)', { tags: [LOAD_TAG] }, () => {
  let server: ReturnType<typeof setupServer>;
  const transport = fetchTransport();

  const suite = fuzzMode({
    name: 'msw',
    async start() {
      const mock = createMockRouter({ seed: 11 });
      server = mock.attach(setupServer(...mock.handlers));
      // Requests outside the handlers' paths are not the gateway's: they fail (a network error), as documented.
      server.listen(errorOnUnhandled());
      // ... and msw says so on the console each time; keep the output readable.
      const consoleError = console.error.bind(console);
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
        if (/\[MSW\]/.test(String(args[0])) || args[0] instanceof URIError) return;
        consoleError(...args);
      });
      return {
        transport,
        gateway: mock.gateway,
        close() {
          server.close();
          vi.restoreAllMocks();
        },
      };
    },
    // The keyed gateway's handlers go first, so they answer every request until the reset.
    async startKeyed(keys) {
      const keyed = createMockRouter({ seed: 11, keys });
      server.use(...keyed.handlers);
      return { transport, gateway: keyed.gateway, close: () => server.resetHandlers() };
    },
  });

  it('had no unhandled rejection', () => {
    expect(suite.rejections).toEqual([]);
  });

  describe('regressions (msw)', () => {
    it('regression: a path with broken percent-encoding gets the envelope, not msw\u2019s 500 with a URIError stack', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/api/v1/audio/%2', '/api/v1/model/openai/%zz', '/api/v1/model/openai/gpt-4o%E2%82', '/api/v1/generation%'), async (path) => {
          const res = await fetch(`${MSW_ORIGIN}${path}`, { headers: { Authorization: 'Bearer sk-bug' }, signal: AbortSignal.timeout(5_000) });
          const body = await res.text();
          expect(res.status).not.toBe(500);
          expect(res.headers.get('content-type')).toBe('application/json');
          expect(JSON.parse(body).error.code).toBe(res.status);
        }),
        { numRuns: 4, seed: SEED },
      );
    });

    it('regression: a turn whose text is only whitespace is said (200), and the reference model predicts it', async () => {
      const body = JSON.stringify({ model: 'google/gemini-3.1-flash-tts-preview', voice: 'Puck', input: [{ text: ' ' }] });
      const res = await fetch(`${MSW_ORIGIN}/api/v1/audio/speech`, { method: 'POST', headers: { Authorization: 'Bearer sk-bug', 'Content-Type': 'application/json' }, body, signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect([...speechOutcome(new TextEncoder().encode(body), []).statuses]).toEqual([200]);
    });

    it('regression: a HEAD request is answered without the GET body', async () => {
      const res = await fetch(`${MSW_ORIGIN}/api/v1/model/openai/gpt-4o`, { method: 'HEAD', headers: { Authorization: 'Bearer sk-bug' }, signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });

    it('regression: a HEAD request that gets an error is answered without the envelope\u2019s body', async () => {
      const res = await fetch(`${MSW_ORIGIN}/api/v1/model/openai/no-such-model`, { method: 'HEAD', headers: { Authorization: 'Bearer sk-bug' }, signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });
  });
});
