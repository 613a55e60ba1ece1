/**
 * A journal entry is settled by the time its client has seen the answer end: `body_end` is `cut` or `complete`, never
 * `null`, when the client asks right after (`src/node-adapter/send.ts` ends the exchange as it hands the last byte, or
 * the cut, to the socket).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const AUTH = { Authorization: 'Bearer sk-settled' };
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 3 });
});
afterAll(() => server.close());

/** The newest journal entry's `body_end`. */
async function lastBodyEnd(): Promise<string | null> {
  const page = (await (await fetch(`${server.url}/__mock/requests?limit=1`)).json()) as { requests: { body_end: string | null }[] };
  return page.requests[0]!.body_end;
}

it('says cut as soon as the client has seen a cut answer end, and complete for a whole one', async () => {
  const seen: (string | null)[] = [];
  for (let i = 0; i < 15; i++) {
    const cut = await postSpeech(server.baseUrl, { model: TTS, input: `Cut short, try ${i}.`, voice: 'alloy', response_format: 'pcm' }, { ...AUTH, 'X-Mock-Scenario': 'truncated-audio' });
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();
    seen.push(await lastBodyEnd());
    const whole = await postSpeech(server.baseUrl, { model: TTS, input: `Whole, try ${i}.`, voice: 'alloy', response_format: 'pcm' }, AUTH);
    await whole.arrayBuffer();
    seen.push(await lastBodyEnd());
  }
  expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 'cut' : 'complete')));
});
