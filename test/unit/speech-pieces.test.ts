/**
 * The pieces a speech body streams in (src/core/audio/stream.ts) concatenate to exactly the whole render: PCM to
 * the synthesized samples' bytes, MP3 to `encodeMp3` of them, and both to `renderBytes`, whatever the input, voice,
 * speed and seed.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeMp3, loadMp3Encoder } from '../../src/core/audio/mp3.js';
import { encodePcm } from '../../src/core/audio/pcm.js';
import { planSpeech } from '../../src/core/audio/plan.js';
import { byteChunks, encodedByteLength, renderBytes } from '../../src/core/audio/stream.js';
import { synthesizeSamples } from '../../src/core/audio/synthesize.js';
import { getVoiceProfile } from '../../src/core/audio/voice.js';
import { sha256Hex } from '../support/sha256.js';
import { TTS } from '../support/speech-model.js';
import { coreSpeechRequest } from '../support/speech-request.js';

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.byteLength;
  }
  return out;
}

const CASES = [
  { input: 'Hi.', voice: 'alloy', speed: 1, seed: 0 },
  { input: 'A longer sentence, with a clause; and a question?', voice: 'nova', speed: 0.25, seed: 7 },
  { input: 'Numbers 3.14 and 10:30, emoji 🎉, and 漢字.\nA new line!', voice: 'Kore', speed: 4, seed: 42 },
  { input: 'The quick brown fox jumps over the lazy dog. '.repeat(40), voice: 'onyx', speed: 1.5, seed: 3 },
];

describe('speech pieces', () => {
  beforeAll(() => loadMp3Encoder());

  it.each(CASES)('concatenate to the whole render ($voice, speed $speed)', (req) => {
    const plan = planSpeech(req);
    const voice = getVoiceProfile(req.voice);
    const samples = synthesizeSamples(req);
    for (const format of ['pcm', 'mp3'] as const) {
      const pieces = [...byteChunks(plan, voice, format)];
      expect(pieces.length).toBeGreaterThan(format === 'mp3' ? 2 : 0);
      const streamed = concat(pieces);
      const expected = format === 'pcm' ? encodePcm(samples) : encodeMp3(samples);
      expect(streamed.byteLength).toBe(encodedByteLength(format, plan.sampleCount));
      expect(sha256Hex(streamed)).toBe(sha256Hex(expected));
      expect(sha256Hex(renderBytes(plan, voice, format))).toBe(sha256Hex(expected));
    }
  });

  it('renders PCM straight into a given buffer (the pieces are views of it)', () => {
    const plan = planSpeech(CASES[3]!);
    const output = new Uint8Array(encodedByteLength('pcm', plan.sampleCount));
    const pieces = [...byteChunks(plan, getVoiceProfile('onyx'), 'pcm', output)];
    const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    if (littleEndian) expect(pieces.every((piece) => piece.buffer === output.buffer)).toBe(true);
    expect(sha256Hex(output)).toBe(sha256Hex(encodePcm(synthesizeSamples(CASES[3]!))));
  });
});

describe('fake timers installed before the core loads', () => {
  it('do not stall a streamed render (the pieces wait on a MessageChannel, not a faked setImmediate)', async () => {
    vi.resetModules();
    vi.useFakeTimers();
    try {
      const { createGateway } = await import('../../src/node-platform/create-gateway.js');
      const gateway = createGateway({ seed: 1 });
      const input = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
      const response = await gateway.handle(coreSpeechRequest({ model: TTS, input, voice: 'alloy' }, { authorization: 'Bearer k' }));
      expect(response.status).toBe(200);
      let bytes = 0;
      for await (const piece of response.body as AsyncIterable<Uint8Array>) bytes += piece.byteLength;
      expect(bytes).toBe(encodedByteLength('pcm', planSpeech({ input, voice: 'alloy', speed: 1, seed: 1 }).sampleCount));
    } finally {
      vi.useRealTimers();
      vi.resetModules();
    }
  });
});
