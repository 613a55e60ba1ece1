/**
 * Speech streams as it is rendered (src/core/audio/stream.ts), in every mode: the first bytes of a long answer
 * arrive before most of it is rendered, other requests are answered during the render, a client that goes away
 * stops it, and the streamed bytes equal the whole render's and the cached answer's. These assert order and
 * bytes, not wall-clock times (the times are in `npm run bench`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAudioRenderer } from '../src/core/audio/renderer.js';
import { loadMp3Encoder } from '../src/core/audio/mp3.js';
import { contextOf } from './support/gateway-context.js';
import { auth, singleProcessModes, type RunningMode } from './support/modes.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

/** About 4,000 characters: four and a half minutes of speech. */
const LONG = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(64).trim();

describe.each(singleProcessModes)('streamed speech ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 11 });
  });
  // Before each test: another file run earlier in this worker may have left the encoder renewed (idle past its bound).
  beforeEach(() => loadMp3Encoder());
  afterAll(() => mock.stop());

  const speech = (input: string, format: 'mp3' | 'pcm', voice = 'alloy') =>
    postSpeech(mock.baseUrl, { model: TTS, input, voice, response_format: format }, auth());
  const stats = () => contextOf(mock.gateway).audio.stats();

  it('the first chunk of a long MP3 arrives before a tenth of it is rendered', async () => {
    const before = stats().streamedBytes;
    const res = await speech(LONG, 'mp3', 'nova');
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    const renderedAtFirstChunk = stats().streamedBytes - before;
    expect(first.done).toBe(false);
    expect(first.value!.byteLength).toBeGreaterThan(0);
    let total = first.value!.byteLength;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
    }
    expect(total).toBeGreaterThan(2_000_000); // 4.5 min at 64 kbps
    expect(renderedAtFirstChunk).toBeLessThan(total / 10);
  });

  it('a model lookup sent during a long render is answered before the render ends', async () => {
    const events: string[] = [];
    const long = speech(LONG, 'mp3', 'onyx').then(async (res) => {
      await res.arrayBuffer();
      events.push('speech done');
    });
    // Wait until the render has started, then look a model up.
    const started = stats().streamedBytes;
    while (stats().streamedBytes === started) await new Promise((resolve) => setImmediate(resolve));
    const lookup = await fetch(`${mock.baseUrl}/model/openai/gpt-4o`, { headers: auth() });
    expect(lookup.status).toBe(200);
    events.push('lookup done');
    await long;
    expect(events).toEqual(['lookup done', 'speech done']);
  });

  it('a client that goes away stops the render, and nothing half-made is cached', async () => {
    const input = `${LONG} Cancelled.`;
    const controller = new AbortController();
    const before = stats();
    const res = await postSpeech(mock.baseUrl, { model: TTS, input, voice: 'echo', response_format: 'mp3' }, auth(), { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    // Once it noticed, the render makes no more bytes; a render that went on (about 1.5 s in all) would keep
    // growing streamedBytes and then enter the cache.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const soon = stats().streamedBytes;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = stats();
    expect(after.streamedBytes).toBe(soon);
    expect(after.streamedBytes - before.streamedBytes).toBeLessThan(1_000_000);
    expect(after.entries).toBe(before.entries);
  });

  it('identical requests while one renders share that render (encoded once, same bytes)', async () => {
    const input = `${LONG.slice(0, 1500)} Shared.`;
    const before = stats().streamedBytes;
    const [a, b] = await Promise.all([speech(input, 'mp3', 'fable'), speech(input, 'mp3', 'fable')]);
    const [bytesA, bytesB] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    expect(sha256Hex(new Uint8Array(bytesB))).toBe(sha256Hex(new Uint8Array(bytesA)));
    expect(stats().streamedBytes - before).toBe(bytesA.byteLength);
    expect(stats().entries).toBeGreaterThan(0);
  });

  it('streamed, cached and whole renders are the same bytes', async () => {
    const input = 'Streams and caches must agree, byte for byte.';
    for (const format of ['mp3', 'pcm'] as const) {
      const streamed = new Uint8Array(await (await speech(input, format, 'shimmer')).arrayBuffer());
      const cached = new Uint8Array(await (await speech(input, format, 'shimmer')).arrayBuffer());
      // A renderer of its own, so this is a fresh whole render, not the gateway's cached stream.
      const whole = createAudioRenderer().render({ input, voice: 'shimmer', speed: 1, seed: 11, format });
      expect(sha256Hex(cached)).toBe(sha256Hex(streamed));
      expect(sha256Hex(whole.bytes)).toBe(sha256Hex(streamed));
      expect(streamed.byteLength).toBe(whole.bytes.byteLength);
    }
  });
});
