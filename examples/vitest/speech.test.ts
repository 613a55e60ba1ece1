import { OpenRouter } from '@openrouter/sdk';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { createMockRouter, errorOnUnhandled } from 'mockrouter';
import 'mockrouter/vitest'; // resilience matchers: toHonorRetryAfter, toRetryStatus, ...

const MODEL = 'openai/gpt-4o-mini-tts-2025-12-15';
const BASE_URL = 'https://openrouter.ai/api/v1'; // the real address: the handlers answer it in-process

const mock = createMockRouter({ seed: 1 });
const server = mock.attach(setupServer(...mock.handlers)); // attach: see "msw 2 and retrying clients"
beforeAll(() => server.listen(errorOnUnhandled()));
afterEach(() => mock.reset()); // scenario counters, journal and default scenario back to the start
afterAll(() => server.close());

test('the openai client retries a 429 after Retry-After and gets the audio', async () => {
  mock.useScenario('rate-limited-then-ok'); // 429 twice with Retry-After: 1, then normal answers
  const openai = new OpenAI({ baseURL: BASE_URL, apiKey: 'sk-test' });
  const speech = await openai.audio.speech.create({ model: MODEL, input: 'Hi there.', voice: 'alloy' });
  expect(speech.status).toBe(200);
  expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(0);
  expect(mock.journal.list().map((r) => r.status)).toEqual([429, 429, 200]);
  expect(mock.journal).toHonorRetryAfter();
});

test('the openai client does not retry a 402', async () => {
  const openai = new OpenAI({ baseURL: BASE_URL, apiKey: 'sk-test' });
  await expect(
    openai.audio.speech.create(
      { model: MODEL, input: 'Hi there.', voice: 'alloy' },
      { headers: { 'X-Mock-Scenario': 'insufficient-credits' } }, // this request only
    ),
  ).rejects.toThrow(/Insufficient credits/);
  expect(mock.journal.list().map((r) => r.status)).toEqual([402]);
  expect(mock.journal).not.toRetryStatus(402);
});

test('@openrouter/sdk gets MP3 audio, and the generation record of the call', async () => {
  const openRouter = new OpenRouter({ serverURL: BASE_URL, apiKey: 'sk-test' });
  const input = 'Hello from the mock gateway.';
  const stream = await openRouter.tts.createSpeech({
    speechRequest: { model: MODEL, input, voice: 'nova', responseFormat: 'mp3' },
  });
  const mp3 = new Uint8Array(await new Response(stream).arrayBuffer());
  expect(mp3.byteLength).toBeGreaterThan(1000);
  expect(mp3[0]).toBe(0xff); // an MPEG audio frame header

  const id = mock.journal.last()?.generation_id; // the X-Generation-Id the call got
  expect(id).toMatch(/^gen-tts-/);
  const { data } = await openRouter.generations.getGeneration({ id: id! });
  expect(data.apiType).toBe('tts');
  expect(data.tokensPrompt).toBe(input.length);
});
