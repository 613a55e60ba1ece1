/**
 * Rate limits, on a frozen clock, in every mode: the `:free` variants' 20 requests a minute (counted per key and
 * model; `docs/behaviour.md`, "Where the simulator chooses") and a key's own `rate_limit` from the keys option.
 * A 429 carries `Retry-After` (seconds), `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (unix
 * ms as a string) and the same three in `error.metadata.headers` (`docs/behaviour.md`, "Rate limits"); a limit
 * frees up as the window passes. The clock moves through `POST /__mock/clock` on the standalone server and
 * `gateway.clock.advance` in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modes, type RunningMode } from './support/modes.js';
import { advanceClock, clockNow, envelopeOf, getJson, speech } from './support/stateful.js';
import { TTS } from './support/speech-model.js';

const FREE = `${TTS}:free`;
const OTHER_FREE = 'hexgrad/kokoro-82m:free';
const T0 = Date.parse('2026-01-01T00:00:00Z');

/**
 * Checks a gateway 429 and the consistency of its headers at `nowMs`: Limit, Remaining "0", Reset in unix ms,
 * Reset − now = Retry-After × 1000 (± 1 s), and `error.metadata.headers` equal to the response headers.
 */
function expect429(res: Response, bytes: Uint8Array, nowMs: number, limit: number): { retryAfter: number; reset: number } {
  const envelope = envelopeOf(res, bytes, 429);
  expect(envelope.error.message).toBe('Rate limit exceeded');
  expect(envelope.error.metadata?.error_type).toBe('rate_limit_exceeded');
  const headers = {
    'X-RateLimit-Limit': res.headers.get('x-ratelimit-limit'),
    'X-RateLimit-Remaining': res.headers.get('x-ratelimit-remaining'),
    'X-RateLimit-Reset': res.headers.get('x-ratelimit-reset'),
  };
  expect(headers['X-RateLimit-Limit']).toBe(String(limit));
  expect(headers['X-RateLimit-Remaining']).toBe('0');
  expect(headers['X-RateLimit-Reset']).toMatch(/^\d{13}$/); // unix ms, not seconds
  expect(envelope.error.metadata?.headers).toEqual(headers);
  const retryAfterText = res.headers.get('retry-after');
  expect(retryAfterText).toMatch(/^\d+$/);
  const retryAfter = Number(retryAfterText);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  const reset = Number(headers['X-RateLimit-Reset']);
  expect(reset).toBeGreaterThan(nowMs);
  expect(Math.abs(reset - nowMs - retryAfter * 1000)).toBeLessThanOrEqual(1000);
  expect(res.headers.get('x-generation-id')).toBeNull();
  return { retryAfter, reset };
}

function expectNoRateLimitHeaders(res: Response): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) expect(res.headers.get(name)).toBeNull();
}

describe.each(modes)('rate limits ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({
      seed: 8,
      clock: '2026-01-01T00:00:00Z',
      keys: ['sk-free-a', 'sk-free-b', 'sk-other', { key: 'sk-limited', rate_limit: { requests: 3, interval_s: 10 } }],
    });
  });
  afterAll(() => mock.stop());

  const say = (key: string, model = FREE, voice = 'alloy') => speech(mock.baseUrl, { model, input: 'Hi there.', voice }, key);

  it('the 21st call to a :free model within a minute is a 429 with consistent headers; past the reset calls succeed again', async () => {
    expect(await clockNow(mode, mock)).toBe(T0);
    const first = await say('sk-free-a');
    expect(first.res.status).toBe(200);
    expectNoRateLimitHeaders(first.res);
    // The window runs from the first request: half a minute later, 19 more fit, not 20.
    await advanceClock(mode, mock, 30_500);
    for (let i = 2; i <= 20; i++) expect((await say('sk-free-a')).res.status, `call ${i}`).toBe(200);
    const now = T0 + 30_500;
    expect(await clockNow(mode, mock)).toBe(now);
    const limited = await say('sk-free-a');
    const { retryAfter, reset } = expect429(limited.res, limited.bytes, now, 20);
    expect(reset).toBe(T0 + 60_000);
    expect(retryAfter).toBe(30);

    // Per key and model: another :free model, the paid base model and another key are not limited.
    expect((await say('sk-free-a', OTHER_FREE, 'af_bella')).res.status).toBe(200);
    expect((await say('sk-free-a', TTS)).res.status).toBe(200);
    expect((await say('sk-free-b')).res.status).toBe(200);

    // One ms before the reset it is still limited, with Retry-After rounded up to 1.
    await advanceClock(mode, mock, reset - now - 1);
    const almost = await say('sk-free-a');
    expect(expect429(almost.res, almost.bytes, reset - 1, 20)).toEqual({ retryAfter: 1, reset });

    // At the reset the window starts again from this request: 20 more fit, the 21st is limited again.
    await advanceClock(mode, mock, 1);
    for (let i = 1; i <= 20; i++) {
      const again = await say('sk-free-a');
      expect(again.res.status, `call ${i} after the reset`).toBe(200);
      expectNoRateLimitHeaders(again.res);
    }
    const next = await say('sk-free-a');
    expect(expect429(next.res, next.bytes, reset, 20)).toEqual({ retryAfter: 60, reset: reset + 60_000 });
  });

  it('a key with rate_limit {requests: 3, interval_s: 10} gets 429 on its 4th request of any operation', async () => {
    const start = await clockNow(mode, mock);
    const key = 'sk-limited';
    const statuses = [
      (await getJson(mock.baseUrl, `/model/${TTS}`, key)).res.status,
      (await getJson(mock.baseUrl, '/generation?id=gen-nothing', key)).res.status,
      (await speech(mock.baseUrl, { model: TTS, input: 'Third.', voice: 'alloy' }, key)).res.status,
    ];
    expect(statuses).toEqual([200, 404, 200]);
    const res = await fetch(`${mock.baseUrl}/model/${TTS}`, { headers: { Authorization: `Bearer ${key}` } });
    const limited = expect429(res, new Uint8Array(await res.arrayBuffer()), start, 3);
    expect(limited).toEqual({ retryAfter: 10, reset: start + 10_000 });
    const speechLimited = await speech(mock.baseUrl, { model: TTS, input: 'Fourth.', voice: 'alloy' }, key);
    expect429(speechLimited.res, speechLimited.bytes, start, 3);

    // Other keys are not affected.
    expect((await getJson(mock.baseUrl, `/model/${TTS}`, 'sk-other')).res.status).toBe(200);

    await advanceClock(mode, mock, 9_999);
    const almost = await fetch(`${mock.baseUrl}/model/${TTS}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(expect429(almost, new Uint8Array(await almost.arrayBuffer()), start + 9_999, 3)).toEqual({ retryAfter: 1, reset: start + 10_000 });
    await advanceClock(mode, mock, 1);
    const ok = await getJson(mock.baseUrl, `/model/${TTS}`, key);
    expect(ok.res.status).toBe(200);
    expectNoRateLimitHeaders(ok.res);
  });
});
