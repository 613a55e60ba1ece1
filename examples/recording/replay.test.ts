import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createMockRouter, errorOnUnhandled, type MockRouter } from 'mockrouter';

// The folder record-session.sh wrote and you committed (RECORDED_DIR to read another one).
const RECORDED = process.env.RECORDED_DIR ?? join(import.meta.dirname, 'recorded');
const MODEL = 'openai/gpt-4o-mini-tts-2025-12-15';
const BASE_URL = 'https://openrouter.ai/api/v1'; // the real address: the handlers answer it in-process
const AUTH = { Authorization: 'Bearer sk-test', 'Content-Type': 'application/json' };

describe.skipIf(!existsSync(RECORDED))(`the session recorded in ${RECORDED}`, () => {
  let mock: MockRouter;
  let server: SetupServer;
  beforeAll(() => {
    // Another seed than the upstream's: recorded answers do not depend on it, the rest is simulated.
    mock = createMockRouter({ fixtures: RECORDED, seed: 2 });
    server = mock.attach(setupServer(...mock.handlers));
    server.listen(errorOnUnhandled());
  });
  afterEach(() => mock.reset());
  afterAll(() => server.close());

  const speak = (input: string) =>
    fetch(`${BASE_URL}/audio/speech`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ model: MODEL, input, voice: 'alloy', response_format: 'mp3' }),
    });

  test('a speech request that was recorded answers the recorded bytes', async () => {
    const index = JSON.parse(readFileSync(join(RECORDED, 'audio', 'index.json'), 'utf8'));
    const recording = index.recordings.find((r: { key: string }) => JSON.parse(r.key).input === 'Welcome back.');
    const response = await speak('Welcome back.');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(recording.content_type);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(readFileSync(join(RECORDED, 'audio', recording.file)))).toBe(true);
  });

  test('the recorded model record and generation record answer lookups', async () => {
    const model = await fetch(`${BASE_URL}/model/${MODEL}`, { headers: AUTH });
    expect((await model.json()).data.id).toBe(MODEL);
    const { generations } = JSON.parse(readFileSync(join(RECORDED, 'generations.json'), 'utf8'));
    const generation = await fetch(`${BASE_URL}/generation?id=${generations[0].id}`, { headers: AUTH });
    expect((await generation.json()).data).toEqual(generations[0]);
  });

  test('a request that was not recorded is simulated', async () => {
    const response = await speak('Something the session never said.');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
