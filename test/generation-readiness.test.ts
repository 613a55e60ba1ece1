/**
 * Generation readiness: a speech call's record is readable only `generationDelayMs` after the call; before that
 * the lookup answers 404 `Generation not found`, as the real gateway does (`docs/behaviour.md`, "Generation lookup").
 *
 * - The official SDK polls `generations.getGeneration` in-process under vitest fake timers (the core's default
 *   clock is `Date.now`, which fake timers control) and gets the record on the first poll at or after the delay.
 * - `'realistic'` draws a delay in [500, 2000] ms per record, the same for the same seed and request sequence.
 * - The standalone server's readiness follows its clock (`POST /__mock/clock`).
 */
import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockRouter, type MockRouter } from '../src/index.js';
import type { Gateway } from '../src/core/gateway/gateway.js';
import { auth, serverMode } from './support/modes.js';
import { adminOrigin } from './support/stateful.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest, postSpeech } from './support/speech-request.js';

const START = Date.UTC(2026, 0, 1, 0, 0, 0);

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

describe('generation readiness, in-process under fake timers', () => {
  let server: ReturnType<typeof setupServer> | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
    vi.useRealTimers();
  });

  it('the SDK polls getGeneration every 250 ms and gets the record on the first poll at or after 1500 ms', async () => {
    vi.useFakeTimers({ now: START });
    const mock: MockRouter = createMockRouter({ seed: 5, generationDelayMs: 1500 });
    server = setupServer(...mock.handlers);
    server.listen(errorOnUnhandled());

    const openRouter = new OpenRouter({ serverURL: 'https://openrouter.ai/api/v1', apiKey: 'sk-poll', retryConfig: { strategy: 'none' } });
    const audio = await openRouter.tts.createSpeech({ speechRequest: { model: TTS, input: 'Poll me later.', voice: 'alloy', responseFormat: 'pcm' } });
    expect(await drain(audio)).toBeGreaterThan(0);
    const id = mock.journal.list({ operation: 'speech' })[0]?.generation_id;
    expect(id).toMatch(/^gen-tts-\d{10}-[A-Za-z0-9]{20}$/);
    const calledAt = Date.now();
    expect(calledAt).toBe(START);

    const polls: { at: number; status: number }[] = [];
    let record: Awaited<ReturnType<typeof openRouter.generations.getGeneration>> | undefined;
    for (let i = 0; i < 20 && !record; i++) {
      const at = Date.now() - calledAt;
      try {
        record = await openRouter.generations.getGeneration({ id: id! });
        polls.push({ at, status: 200 });
      } catch (error) {
        if (!(error instanceof errors.NotFoundResponseError)) throw error;
        expect(error.statusCode).toBe(404);
        expect(error.message).toBe('Generation not found');
        polls.push({ at, status: 404 });
        await vi.advanceTimersByTimeAsync(250);
      }
    }

    expect(record?.data.id).toBe(id);
    expect(record?.data.model).toBe(TTS);
    expect(Date.parse(record!.data.createdAt)).toBe(calledAt);
    expect(polls).toEqual([
      ...[0, 250, 500, 750, 1000, 1250].map((at) => ({ at, status: 404 })),
      { at: 1500, status: 200 },
    ]);

    const journal = mock.journal.list({ operation: 'generation' });
    expect(journal.map((e) => e.status)).toEqual([404, 404, 404, 404, 404, 404, 200]);
    expect(journal.map((e) => e.time - calledAt)).toEqual([0, 250, 500, 750, 1000, 1250, 1500]);
    for (const entry of journal.slice(0, -1)) expect(entry.query).toEqual({ id });
  });

  it('with the default delay (0) the record is readable at once', async () => {
    vi.useFakeTimers({ now: START });
    const mock = createMockRouter({ seed: 5 });
    server = setupServer(...mock.handlers);
    server.listen(errorOnUnhandled());
    const res = await speech('https://openrouter.ai/api/v1', 'Right away.');
    const lookup = await fetch(`https://openrouter.ai/api/v1/generation?id=${res.id}`, { headers: auth() });
    expect(lookup.status).toBe(200);
  });
});

async function speech(baseUrl: string, input: string, model = TTS, voice = 'alloy'): Promise<{ status: number; id: string }> {
  const res = await postSpeech(baseUrl, { model, input, voice }, auth());
  await res.arrayBuffer();
  return { status: res.status, id: res.headers.get('x-generation-id') ?? '' };
}

/**
 * The exact readiness delay of record `id`, ms, found by bisecting the gateway's clock (which must be frozen at
 * the call's time) with lookups; the clock is put back afterwards.
 */
async function measureDelay(gateway: Gateway, id: string, max = 5000): Promise<number> {
  const clock = gateway.clock;
  const created = clock.now();
  const status = async (offset: number) => {
    clock.set(created + offset);
    return (await gateway.handle({ method: 'GET', path: '/api/v1/generation', query: `id=${encodeURIComponent(id)}`, headers: { authorization: 'Bearer sk-test' } })).status;
  };
  expect(await status(max)).toBe(200);
  let lo = -1; // known 404 (or before the call)
  let hi = max; // known 200
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await status(mid)) === 200) hi = mid;
    else lo = mid;
  }
  clock.set(created);
  return hi;
}

describe("generationDelayMs: 'realistic'", () => {
  /** The delays of five speech calls in a fresh gateway, each made at the same frozen time. */
  async function delays(seed: number): Promise<number[]> {
    const mock = createMockRouter({ seed, clock: '2026-01-01T00:00:00Z', generationDelayMs: 'realistic' });
    const out: number[] = [];
    for (const input of ['One.', 'Two words.', 'Three words here.', 'Four.', 'Five, five.']) {
      const res = await mock.gateway.handle(coreSpeechRequest({ model: TTS, input, voice: 'alloy' }, { authorization: 'Bearer sk-test', 'content-type': 'application/json' }));
      expect(res.status).toBe(200);
      out.push(await measureDelay(mock.gateway, res.headers['X-Generation-Id']!));
    }
    return out;
  }

  it('draws a delay in [500, 2000] ms per record, the same for the same seed and request sequence', async () => {
    const first = await delays(21);
    for (const d of first) {
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(2000);
    }
    expect(new Set(first).size).toBeGreaterThan(1); // seeded per record, not one constant
    expect(await delays(21)).toEqual(first);
    expect(await delays(22)).not.toEqual(first);
  });

  it('a fixed delay is exact', async () => {
    const mock = createMockRouter({ clock: '2026-01-01T00:00:00Z', generationDelayMs: 1234 });
    const res = await mock.gateway.handle(coreSpeechRequest({ model: TTS, input: 'Exact.', voice: 'alloy' }, { authorization: 'Bearer sk-test', 'content-type': 'application/json' }));
    expect(await measureDelay(mock.gateway, res.headers['X-Generation-Id']!)).toBe(1234);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects generationDelayMs %s at creation', (value) => {
    expect(() => createMockRouter({ generationDelayMs: value })).toThrow(/^generationDelayMs: /);
  });
});

describe('generation readiness, standalone with a frozen clock', () => {
  it('answers 404 until POST /__mock/clock moves the clock past the delay', async () => {
    const mock = await serverMode.start({ seed: 5, clock: '2026-01-01T00:00:00Z', generationDelayMs: 1500 });
    const admin = adminOrigin(serverMode, mock)!;
    const advance = async (ms: number) => {
      const res = await fetch(`${admin}/__mock/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }) });
      expect(res.status).toBe(200);
    };
    const lookup = async (id: string) => {
      const res = await fetch(`${mock.baseUrl}/generation?id=${id}`, { headers: auth() });
      const body = (await res.json()) as { error?: { message: string } };
      return res.status === 404 ? `404 ${body.error?.message}` : String(res.status);
    };
    try {
      const { status, id } = await speech(mock.baseUrl, 'Wait for it.');
      expect(status).toBe(200);
      expect(await lookup(id)).toBe('404 Generation not found');
      await advance(1499);
      expect(await lookup(id)).toBe('404 Generation not found');
      await advance(1);
      expect(await lookup(id)).toBe('200');
    } finally {
      await mock.stop();
    }
  });
});
