/**
 * When the WebAssembly MP3 encoder cannot load (here: `wasm-media-encoders` replaced by a module whose loaders
 * reject, as a page whose Content-Security-Policy forbids compiling WebAssembly would make them), an MP3 speech
 * request is a 500 envelope naming the cause, not charged and leaving no generation record, and PCM still works;
 * in both modes (src/core/operations/speech.ts, `AudioRenderer.unavailable`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { modes, type RunningMode } from './support/modes.js';
import { envelopeOf, getJson, speech } from './support/stateful.js';

const REFUSAL = "WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not allowed";

vi.mock('../src/core/audio/mp3-package.js', () => ({
  createEncoder: () => Promise.reject(new Error(REFUSAL)),
  createMp3Encoder: () => Promise.reject(new Error(REFUSAL)),
}));

const BODY = { model: 'openai/gpt-4o-mini-tts-2025-12-15', input: 'Hello there.', voice: 'alloy' };

describe.each(modes)('speech when the MP3 encoder cannot load ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 1 });
    await expect(mock.gateway.warmUp()).rejects.toThrow(REFUSAL);
  });
  afterAll(() => mock.stop());

  it('answers MP3 with a 500 envelope naming the cause, uncharged, without a generation record', async () => {
    const before = await getJson<{ data: { usage: number } }>(mock.baseUrl, '/key');
    const { res, bytes, id } = await speech(mock.baseUrl, { ...BODY, response_format: 'mp3' });
    const envelope = envelopeOf(res, bytes, 500);
    expect(envelope.error.message).toContain('response_format: the simulator\'s mp3 encoder failed to load');
    expect(envelope.error.message).toContain(REFUSAL);
    expect(id).toBeNull();
    const after = await getJson<{ data: { usage: number } }>(mock.baseUrl, '/key');
    expect(after.body.data.usage).toBe(before.body.data.usage);
  });

  it('still answers PCM', async () => {
    const { res, bytes, id } = await speech(mock.baseUrl, { ...BODY, response_format: 'pcm' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
    expect(bytes.byteLength).toBeGreaterThan(4800);
    expect(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2).some((s) => Math.abs(s) > 1000)).toBe(true);
    expect(id).toMatch(/^gen-tts-/);
  });
});
