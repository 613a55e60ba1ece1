/**
 * `mock.attach(server)`: under msw 2 the openai SDK hangs on its first retry unless msw's copy of each mocked
 * response is drained (mswjs/interceptors#799). With it, openai's default retries pass through
 * `rate-limited-then-ok` in-process.
 */
import OpenAI from 'openai';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockRouter } from '../src/index.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { TTS } from './support/speech-model.js';

const mock = createMockRouter({ seed: 5 });
const server = mock.attach(setupServer(...mock.handlers));
beforeAll(() => server.listen(errorOnUnhandled()));
afterAll(() => server.close());

it('lets the openai SDK retry 429s in-process and get the audio', async () => {
  mock.useScenario({ name: 'twice-429', rules: [{ times: 2, error: { status: 429, headers: { 'Retry-After': '0' } } }] });
  const openai = new OpenAI({ baseURL: 'https://openrouter.ai/api/v1', apiKey: 'sk-attach' });
  const speech = await openai.audio.speech.create({ model: TTS, input: 'Retry me.', voice: 'alloy' });
  expect(speech.status).toBe(200);
  expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  expect(mock.journal.list().map((entry) => entry.status)).toEqual([429, 429, 200]);
}, 10_000);
