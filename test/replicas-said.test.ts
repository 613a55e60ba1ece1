/**
 * Audio said by one replica is heard by another: two standalone servers sharing one Valkey/Redis store
 * (`docs/scale-out.md`), speech said on the first in tones mode (PCM and MP3), transcribed on the second through
 * `POST /api/v1/audio/transcriptions`, exactly to its input, the second's journal naming the said index as the source.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { describeWithRedis } from './support/redis.js';
import { STT, TTS } from './support/speech-model.js';

const KEY = 'sk-replicas-said';
const PREFIX = 'said-replicas:';

describeWithRedis('said audio across replicas', (redis) => {
  let a: RunningServer;
  let b: RunningServer;
  let raw: Redis;

  beforeAll(async () => {
    const shared = { keys: [KEY], seed: 5, store: redis.url, storePrefix: PREFIX, port: 0 };
    a = await startServer({ ...shared, replicaId: 'a' });
    b = await startServer({ ...shared, replicaId: 'b' });
    raw = new Redis(redis.url, { lazyConnect: true });
    await raw.connect();
  });
  afterAll(async () => {
    raw?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
  });

  it.each(['pcm', 'mp3'] as const)('speech said on replica a as %s is transcribed on replica b to its exact input', async (format) => {
    const input = `Said on one replica as ${format}, heard on the other.`;
    const speech = await fetch(`${a.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'X-Mock-Speech': 'tones' },
      body: JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: format }),
    });
    expect(speech.status).toBe(200);
    const bytes = new Uint8Array(await speech.arrayBuffer());
    // The speech body ends only once replica a has written the audio to the store: it is there now, with no wait.
    const hash = createHash('sha256').update(bytes).digest('hex');
    expect(await raw.exists(`${PREFIX}said-entry:${hash}`)).toBe(1);

    const heard = await fetch(`${b.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: STT, input_audio: { data: Buffer.from(bytes).toString('base64'), format } }),
    });
    expect(heard.status).toBe(200);
    expect(((await heard.json()) as { text: string }).text).toBe(input);
    const entry = (await b.gateway.sharedJournal.list()).find((e) => e.operation === 'transcription' && e.transcription?.audio_sha256 === hash);
    expect(entry).toMatchObject({ replica: 'b', transcription: { source: 'said', text: input } });
  });
});
