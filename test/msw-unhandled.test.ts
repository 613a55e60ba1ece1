/**
 * `errorOnUnhandled()` (src/msw/compat.ts), the `server.listen()` options the README gives: a request no handler
 * answers fails, with msw's own error message; a `data:` URL, which never reaches a network, goes through silently,
 * so the `openai` SDK's upload (it fetches `data:,` first, to learn the fetch's `Response` class) prints nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createMockRouter } from '../src/index.js';
import { errorOnUnhandled, isLocalUrl } from '../src/msw/compat.js';
import { TTS } from './support/speech-model.js';

const mock = createMockRouter({ seed: 9 });
const server = mock.attach(setupServer(...mock.handlers));
beforeAll(() => server.listen(errorOnUnhandled()));
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

/** What msw and anything else wrote to `console.error` while `run` ran, and a little after (msw prints asynchronously). */
async function errorsDuring(run: () => Promise<void>): Promise<string[]> {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return spy.mock.calls.map((args) => args.map(String).join(' '));
}

it('fails a request no handler answers, without performing it, with msw\'s error naming it', async () => {
  // A real server the request would reach if it went through: it must see nothing.
  let reached = 0;
  const upstream = createServer((_request, response) => {
    reached++;
    response.end('performed');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/unhandled-path`;
  try {
    const printed = await errorsDuring(async () => {
      await expect(fetch(url)).rejects.toThrow();
    });
    expect(printed.join('\n')).toContain(`GET ${url}`);
    expect(reached).toBe(0);
  } finally {
    await new Promise((resolve) => upstream.close(resolve));
  }
});

it('lets a data: URL through without a word', async () => {
  const printed = await errorsDuring(async () => {
    expect(await (await fetch('data:text/plain,hello')).text()).toBe('hello');
  });
  expect(printed).toEqual([]);
});

it('prints nothing while the openai SDK uploads a file for transcription (its data:, probe included)', async () => {
  const speech = await fetch('https://openrouter.ai/api/v1/audio/speech', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk-unhandled', 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: TTS, input: 'Nothing to report.', voice: 'alloy', response_format: 'mp3' }),
  });
  const mp3 = new Uint8Array(await speech.arrayBuffer());
  const probes: string[] = [];
  // A fetch of its own, so the SDK's per-fetch cache of the probe is empty and it fetches `data:,` through msw.
  const openaiFetch = (input: string | URL | Request, init?: RequestInit) => {
    if (String(input).startsWith('data:')) probes.push(String(input));
    return fetch(input, init);
  };
  const openai = new OpenAI({ baseURL: 'https://openrouter.ai/api/v1', apiKey: 'sk-unhandled', maxRetries: 0, fetch: openaiFetch });
  const printed = await errorsDuring(async () => {
    const heard = await openai.audio.transcriptions.create({ file: await toFile(mp3, 'speech.mp3'), model: 'openai/whisper-1' });
    expect(heard.text).toBe('Nothing to report.');
  });
  expect(probes).toEqual(['data:,']);
  expect(printed).toEqual([]);
});

it('counts data: and blob: URLs as local, and nothing else', () => {
  expect(['data:,', 'blob:nodedata:5c1c', 'https://openrouter.ai/api/v1/models', 'http://127.0.0.1:4010/data:', 'file:///tmp/x'].map(isLocalUrl)).toEqual([true, true, false, false, false]);
});
