/**
 * `rate-limited-then-ok` in-process, as a user's vitest suite would use it: the `openai` client with its default
 * retries gets through after two 429s, waiting the `Retry-After` each time (real wall-clock waits, about 2 s:
 * the standalone equivalent is in journal-admin.test.ts, so the two waits run in parallel files), and sessions
 * keep their own counters.
 *
 * Under msw 2 the retry needs `mock.attach(server)` (mswjs/interceptors#799): without it the openai client hangs
 * for ever before its first retry. The first block shows why, on the msw installed.
 */
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockRouter } from '../src/index.js';
import { MSW_MAJOR, MSW_VERSION } from './support/modes.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { TTS } from './support/speech-model.js';

const BASE = 'https://openrouter.ai/api/v1';

const mock = createMockRouter({ seed: 21 });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen(errorOnUnhandled()));
afterEach(() => mock.reset());
afterAll(() => server.close());

function getModel(headers: Record<string, string>): Promise<Response> {
  return fetch(`${BASE}/model/openai/gpt-4o-mini`, { headers });
}

describe(`msw ${MSW_VERSION} before mock.attach(server)`, () => {
  // Why attach exists: under msw 2 cancelling a mocked body never settles (msw keeps an unread tee of it), and the
  // openai client awaits that cancel before each retry. msw 3 does not have the problem. When this fails on msw 2,
  // msw has the fix (mswjs/interceptors#833) and the note on attach (docs/scenarios.md, "msw 2 and retrying clients") can say so.
  it(`cancelling a mocked body ${MSW_MAJOR >= 3 ? 'settles' : 'never settles (mswjs/interceptors#799)'}`, async () => {
    const res = await getModel({ Authorization: 'Bearer sk-canary', 'X-Mock-Status': '429' });
    expect(res.status).toBe(429);
    const cancelled = res.body!.cancel().then(() => 'settled');
    const outcome = await Promise.race([cancelled, new Promise((resolve) => setTimeout(() => resolve('pending'), 200))]);
    expect(outcome).toBe(MSW_MAJOR >= 3 ? 'settled' : 'pending');
  });
});

describe('rate-limited-then-ok in-process', () => {
  beforeAll(() => void mock.attach(server));

  it('the openai client with its default retries gets the audio after two 429s, waiting Retry-After each time', async () => {
    mock.useScenario('rate-limited-then-ok');
    const openai = new OpenAI({ baseURL: BASE, apiKey: 'sk-retry' });
    expect(openai.maxRetries).toBe(2);
    const started = performance.now();
    const response = await openai.audio.speech.create({ model: TTS, input: 'Retried.', voice: 'alloy' });
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // Two waits of Retry-After (1 s) and nothing like the 60 s of `rate-limited`; loose, as a busy machine is slow.
    expect(performance.now() - started).toBeLessThan(10_000);

    const entries = mock.journal.list({ operation: 'speech' });
    expect(entries.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(entries.map((e) => [e.scenario, e.rule])).toEqual([
      ['rate-limited-then-ok', 'rate-limited'],
      ['rate-limited-then-ok', 'rate-limited'],
      [null, null],
    ]);
    expect(entries.map((e) => e.response_headers['Retry-After'] ?? null)).toEqual(['1', '1', null]);
    // The client says which attempt each request is.
    expect(entries.map((e) => e.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    // Spaced by at least Retry-After (1 s); `time` is epoch ms, so allow a few ms of timer and rounding slack.
    const [a, b, c] = entries.map((e) => e.time) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(995);
    expect(c - b).toBeGreaterThanOrEqual(995);
    // One session (the key's), never the key itself.
    expect(new Set(entries.map((e) => e.session))).toEqual(new Set([entries[0]!.session]));
    expect(JSON.stringify(entries)).not.toContain('sk-retry');
  });
});

describe('sessions', () => {
  it('two sessions interleaved (X-Mock-Session) each see their own two failures', async () => {
    mock.useScenario('rate-limited-then-ok');
    const statuses: string[] = [];
    for (const session of ['a', 'b', 'a', 'b', 'a', 'b', 'a']) {
      const res = await getModel({ Authorization: 'Bearer sk-shared', 'X-Mock-Session': session });
      statuses.push(`${session}:${res.status}`);
    }
    expect(statuses).toEqual(['a:429', 'b:429', 'a:429', 'b:429', 'a:200', 'b:200', 'a:200']);
    expect(mock.journal.list({ session: 'a', status: 429 })).toHaveLength(2);
    expect(mock.journal.list({ session: 'b', status: 429 })).toHaveLength(2);
    expect(mock.journal.list({ session: 'a' })).toHaveLength(4);
  });

  it('two API keys interleaved each see their own two failures (the session defaults to the key)', async () => {
    const statuses: string[] = [];
    for (const key of ['sk-one', 'sk-two', 'sk-one', 'sk-two', 'sk-one', 'sk-two']) {
      const res = await getModel({ Authorization: `Bearer ${key}`, 'X-Mock-Scenario': 'rate-limited-then-ok' });
      statuses.push(`${key}:${res.status}`);
    }
    expect(statuses).toEqual(['sk-one:429', 'sk-two:429', 'sk-one:429', 'sk-two:429', 'sk-one:200', 'sk-two:200']);
    const sessions = [...new Set(mock.journal.list().map((e) => e.session))];
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      expect(session).toMatch(/^key-[0-9a-f]{12}$/);
      expect(mock.journal.list({ session }).map((e) => e.status)).toEqual([429, 429, 200]);
    }
  });
});
