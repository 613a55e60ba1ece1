/**
 * When the WebAssembly MP3 encoder cannot load (here: `WebAssembly.instantiate` refuses, as in a page whose
 * Content-Security-Policy forbids WebAssembly), an MP3 speech request is a 500 envelope naming the cause, not
 * charged and leaving no generation record, and PCM still works; once instantiating works again, a later MP3
 * request starts a new load and MP3 answers again; in both modes (src/core/operations/speech.ts,
 * `AudioRenderer.unavailable`, `retryMp3EncoderLoad`).
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MP3_RETRY_INTERVAL_MS } from '../src/core/audio/mp3.js';
import { singleProcessModes, type RunningMode } from './support/modes.js';
import { envelopeOf, getJson, speech } from './support/stateful.js';
import { TTS } from './support/speech-model.js';

const REFUSAL = "WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not allowed";

/** Whether instantiating WebAssembly is refused (as under such a policy), or works. */
const encoder = { refuse: true };

const instantiate = WebAssembly.instantiate.bind(WebAssembly);
vi.spyOn(WebAssembly, 'instantiate').mockImplementation(((...args: Parameters<typeof instantiate>) =>
  encoder.refuse ? Promise.reject(new Error(REFUSAL)) : instantiate(...args)) as typeof instantiate);

const BODY = { model: TTS, input: 'Hello there.', voice: 'alloy' };

describe.each(singleProcessModes)('speech when the MP3 encoder cannot load ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    encoder.refuse = true;
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

// Last in the file: once loaded, the encoder stays loaded for the process (the other describe needs it failed).
describe.each(singleProcessModes)('speech once the MP3 encoder loads after all ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 1 });
  });
  afterAll(() => mock.stop());

  it('loads again once a second has passed since the failure, and then answers MP3', async () => {
    if (encoder.refuse) {
      // First mode: the load failed in the describe above; the policy is lifted.
      encoder.refuse = false;
      await new Promise((resolve) => setTimeout(resolve, MP3_RETRY_INTERVAL_MS + 50));
      // This request still sees the failure, and starts the new load.
      const during = await speech(mock.baseUrl, { ...BODY, response_format: 'mp3' });
      expect(during.res.status).toBe(500);
    }
    await mock.gateway.warmUp();
    const { res, bytes, id } = await speech(mock.baseUrl, { ...BODY, response_format: 'mp3' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(id).toMatch(/^gen-tts-/);
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(bytes);
    decoder.free();
    expect(decoded.sampleRate).toBe(24_000);
    expect(decoded.samplesDecoded).toBeGreaterThan(24_000 * 0.5);
  });
});
