import { MPEGDecoder } from 'mpg123-decoder';
import { beforeEach, describe, expect, it } from 'vitest';
import { LruCache } from '../../src/core/audio/cache.js';
import { createAudioRenderer } from '../../src/core/audio/renderer.js';
import { CONTENT_TYPES, SAMPLE_RATE } from '../../src/core/audio/format.js';
import { MP3_ENCODER_DELAY, encodeMp3, loadMp3Encoder, mpeg2Layer3FrameLength } from '../../src/core/audio/mp3.js';
import { encodePcm, encodePcmCopy } from '../../src/core/audio/pcm.js';
import type { Burst, SynthesisRequest } from '../../src/core/audio/types.js';
import { MAX_PITCH_DEVIATION, SILENT_SAMPLES, planSpeech } from '../../src/core/audio/plan.js';
import { PEAK_LEVEL, synthesizeSamples } from '../../src/core/audio/synthesize.js';
import { VOICE_PITCH_STEP, voiceFundamentalHz } from '../../src/core/audio/voice.js';

// The MP3 encoder is WebAssembly, loaded once per process; the whole-buffer calls below need it loaded.
// Before each test: another file run earlier in this worker may have left the encoder renewed (idle past its bound).
beforeEach(() => loadMp3Encoder());

const TEXT = 'Hello there! This is a quick test of the speech mock, with a comma and a question?';
const req = (over: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  input: TEXT,
  voice: 'alloy',
  speed: 1,
  seed: 42,
  ...over,
});
const codePoints = (s: string): number => [...s].length;
const expectedSamples = (input: string, speed = 1): number => (codePoints(input) / 15 / speed) * SAMPLE_RATE;

type Samples = ArrayLike<number>;

function rms(x: Samples, from = 0, to = x.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (x[i] as number) ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}

function peak(x: Samples): number {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i] as number));
  return max;
}

/** Largest |x[n]| and |x[n] - x[n-1]| within [from, to). */
function localActivity(x: Samples, from: number, to: number): { level: number; jump: number } {
  let level = 0;
  let jump = 0;
  for (let i = Math.max(1, from); i < Math.min(x.length, to); i++) {
    level = Math.max(level, Math.abs(x[i] as number));
    jump = Math.max(jump, Math.abs((x[i] as number) - (x[i - 1] as number)));
  }
  return { level, jump };
}

/** Checks that the signal fades in/out around each burst edge (±1 ms). */
function clickyEdges(x: Samples, bursts: readonly Burst[], full: number): number {
  const ms = SAMPLE_RATE / 1000;
  let bad = 0;
  for (const b of bursts) {
    for (const edge of [b.start, b.start + b.length]) {
      const { level, jump } = localActivity(x, edge - ms, edge + ms);
      if (level > 0.06 * full || jump > 0.03 * full) bad++;
    }
  }
  return bad;
}

/**
 * Fundamental frequency (Hz) of x[from, from + length) by normalised
 * autocorrelation over the middle of the segment, 70–400 Hz.
 */
function estimatePitch(x: Samples, from: number, length: number): number {
  const minLag = Math.floor(SAMPLE_RATE / 400);
  const maxLag = Math.ceil(SAMPLE_RATE / 70);
  const start = from + Math.floor(length * 0.2);
  const window = Math.floor(length * 0.6) - maxLag;
  expect(window).toBeGreaterThan(400);
  const r = new Float64Array(maxLag + 2);
  let best = 0;
  for (let lag = minLag; lag <= maxLag + 1; lag++) {
    let xy = 0;
    let xx = 0;
    let yy = 0;
    for (let i = start; i < start + window; i++) {
      const a = x[i] as number;
      const b = x[i + lag] as number;
      xy += a * b;
      xx += a * a;
      yy += b * b;
    }
    r[lag] = xy / Math.sqrt(xx * yy || 1);
    if (lag <= maxLag) best = Math.max(best, r[lag] as number);
  }
  // Smallest lag close to the best (avoids picking 2× the period), then climb to its peak.
  let lag = minLag;
  while (lag < maxLag && (r[lag] as number) < 0.9 * best) lag++;
  while (lag < maxLag && (r[lag + 1] as number) > (r[lag] as number)) lag++;
  const [a, b, c] = [r[lag - 1] as number, r[lag] as number, r[lag + 1] as number];
  const shift = (a - c) / (2 * (a - 2 * b + c) || 1);
  return SAMPLE_RATE / (lag + shift);
}

const meanHz = (b: Burst): number => (b.startHz + b.endHz) / 2;

async function decodeMp3(bytes: Uint8Array): Promise<{ left: Float32Array; right: Float32Array; sampleRate: number }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate, errors } = decoder.decode(bytes);
    expect(errors).toEqual([]);
    const [left, right] = channelData;
    if (!left || !right) throw new Error('decoder returned no channels');
    expect(left.length).toBe(samplesDecoded);
    return { left, right, sampleRate };
  } finally {
    decoder.free();
  }
}

describe('synthesizeSamples / encodePcm', () => {
  it('makes 16-bit LE PCM whose length follows chars / 15 s and 1 / speed', () => {
    const samples = synthesizeSamples(req());
    const bytes = encodePcm(samples);
    expect(bytes.byteLength).toBe(2 * samples.length);
    expect(samples.length / expectedSamples(TEXT)).toBeGreaterThan(0.95);
    expect(samples.length / expectedSamples(TEXT)).toBeLessThan(1.05);

    const fast = synthesizeSamples(req({ speed: 2 }));
    expect(fast.length / (samples.length / 2)).toBeCloseTo(1, 2);
    const slow = synthesizeSamples(req({ speed: 0.5 }));
    expect(slow.length / (samples.length * 2)).toBeCloseTo(1, 2);

    // Little-endian, header-less: byte pairs read back as the samples.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < samples.length; i += 997) expect(view.getInt16(2 * i, true)).toBe(samples[i]);
    expect(Buffer.from(encodePcmCopy(samples)).equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))).toBe(true);
  });

  it('is loud enough but well below clipping', () => {
    const samples = synthesizeSamples(req());
    const full = 32767;
    expect(rms(samples)).toBeGreaterThan(0.05 * full);
    expect(peak(samples)).toBeGreaterThan(0.3 * full);
    expect(peak(samples)).toBeLessThanOrEqual(PEAK_LEVEL * full + 1);
  });

  it('fades every burst in and out (no clicks)', () => {
    for (const voice of ['alloy', 'onyx', 'shimmer']) {
      for (const speed of [1, 4]) {
        const r = req({ voice, speed });
        const plan = planSpeech(r);
        const samples = synthesizeSamples(r);
        const full = peak(samples);
        expect(plan.bursts.length).toBeGreaterThan(10);
        expect(clickyEdges(samples, plan.bursts, full)).toBe(0);
        // Nothing anywhere jumps by more than half the peak in one sample.
        expect(localActivity(samples, 0, samples.length).jump).toBeLessThan(0.5 * full);
      }
    }
    // The detector itself catches a hard-gated tone.
    const gated = new Int16Array(4800);
    for (let i = 1200; i < 3600; i++) gated[i] = Math.round(16000 * Math.sin((2 * Math.PI * 150 * i) / SAMPLE_RATE + 1));
    const fake: Burst = { start: 1200, length: 2400, startHz: 150, endHz: 150, gain: 1, vowel: 0 };
    expect(clickyEdges(gated, [fake], 16000)).toBeGreaterThan(0);
  });

  it('is deterministic per request and varies with seed and voice', () => {
    const a = encodePcm(synthesizeSamples(req()));
    const b = encodePcm(synthesizeSamples(req()));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const otherSeed = encodePcm(synthesizeSamples(req({ seed: 43 })));
    const otherVoice = encodePcm(synthesizeSamples(req({ voice: 'onyx' })));
    expect(otherSeed.length).toBe(a.length); // the seed never changes the duration
    expect(Buffer.from(otherSeed).equals(Buffer.from(a))).toBe(false);
    expect(Buffer.from(otherVoice).equals(Buffer.from(a))).toBe(false);
    const sameVoice = encodePcm(synthesizeSamples(req({ voice: ' Alloy' })));
    expect(Buffer.from(sameVoice).equals(Buffer.from(a))).toBe(true); // voice names are case-insensitive
  });

  it('gives each voice its mapped pitch (alloy vs onyx)', () => {
    const measured: Record<string, number> = {};
    for (const voice of ['alloy', 'onyx']) {
      const r = req({ voice });
      const first = planSpeech(r).bursts[0];
      if (!first) throw new Error('no burst');
      const samples = synthesizeSamples(r);
      const hz = estimatePitch(samples, first.start, first.length);
      measured[voice] = hz;
      expect(Math.abs(hz / meanHz(first) - 1)).toBeLessThan(0.02);
      expect(Math.abs(hz / voiceFundamentalHz(voice) - 1)).toBeLessThan(MAX_PITCH_DEVIATION + 0.02);
    }
    expect(voiceFundamentalHz('onyx')).toBeCloseTo(90, 5);
    expect(voiceFundamentalHz('alloy')).toBeCloseTo(90 * VOICE_PITCH_STEP ** 8, 5);
    expect((measured.alloy ?? 0) / (measured.onyx ?? 1)).toBeGreaterThan(1.5);
  });

  it('keeps the OpenAI voices at least 8% apart and unknown voices stable', () => {
    const voices = ['alloy', 'ash', 'ballad', 'cedar', 'coral', 'echo', 'fable', 'marin', 'nova', 'onyx', 'sage', 'shimmer', 'verse'];
    const hz = voices.map(voiceFundamentalHz).sort((x, y) => x - y);
    for (let i = 1; i < hz.length; i++) expect((hz[i] as number) / (hz[i - 1] as number)).toBeGreaterThan(1.0799);
    for (const f of hz) expect(f >= 90 && f <= 300).toBe(true);
    expect(voiceFundamentalHz('Alloy ')).toBe(voiceFundamentalHz('alloy'));
    const custom = voiceFundamentalHz('Zephyr');
    expect(custom).toBe(voiceFundamentalHz('zephyr'));
    expect(custom >= 90 && custom <= 300).toBe(true);
  });

  it('handles empty, tiny and non-Latin input', () => {
    for (const input of ['', '   ', '\n\t ']) {
      const silent = synthesizeSamples(req({ input }));
      expect(silent.length).toBe(SILENT_SAMPLES);
      expect(peak(silent)).toBe(0);
    }
    const tiny = synthesizeSamples(req({ input: 'a', speed: 4 }));
    expect(tiny.length).toBe(SAMPLE_RATE / 10); // 100 ms minimum
    expect(planSpeech(req({ input: 'a' })).bursts).toHaveLength(1);
    expect(rms(tiny)).toBeGreaterThan(1000);

    // Durations count code points, not UTF-16 units.
    for (const input of ['你好，世界。今天天气很好。', '😀👍🏽🎉 ok 🚀🚀🚀🚀', 'Привет, мир! Как дела?', 'مرحبا بالعالم']) {
      const samples = synthesizeSamples(req({ input }));
      expect(samples.length).toBe(Math.round(expectedSamples(input)));
      expect(planSpeech(req({ input })).bursts.length).toBeGreaterThan(1);
      expect(rms(samples)).toBeGreaterThan(1000);
    }
    expect(planSpeech(req({ input: '你好世界' })).bursts).toHaveLength(4); // one per ideograph
    expect(planSpeech(req({ input: 'beautiful' })).bursts).toHaveLength(3); // vowel groups
    expect(planSpeech(req({ input: '...' })).bursts).toHaveLength(1); // still audible
  });

  it('puts longer pauses at punctuation', () => {
    const plan = planSpeech(req({ input: 'one two, three four. five six' }));
    const gaps = plan.bursts.slice(1).map((b, i) => b.start - ((plan.bursts[i] as Burst).start + (plan.bursts[i] as Burst).length));
    // Bursts: one two | three four | five six ("one" and "five" have two vowel groups).
    expect(gaps).toHaveLength(7);
    const [afterOne1, afterOne, afterTwo, afterThree, afterFour, afterFive1, afterFive] = gaps as number[];
    expect(afterOne1).toBeLessThan(afterOne as number); // syllable gap < word gap
    expect(afterTwo).toBeGreaterThan(1.8 * (afterOne as number)); // comma
    expect(afterFour).toBeGreaterThan(1.2 * (afterTwo as number)); // full stop > comma
    expect(afterFour).toBeGreaterThan(2.5 * (afterThree as number));
    expect(afterFive1).toBeLessThan(afterFive as number);
  });

  it('rejects out-of-range speed', () => {
    expect(() => synthesizeSamples(req({ speed: 0 }))).toThrow(RangeError);
    expect(() => synthesizeSamples(req({ speed: 4.5 }))).toThrow(RangeError);
    expect(() => synthesizeSamples(req({ speed: Number.NaN }))).toThrow(RangeError);
  });
});

describe('encodeMp3', () => {
  it('decodes to 24 kHz mono audio of the same length and pitch as the PCM', async () => {
    const r = req({ voice: 'onyx', input: 'Hello there, mock speech.' });
    const samples = synthesizeSamples(r);
    const mp3 = encodeMp3(samples);

    // First frame: MPEG-2 layer III, 24 kHz, mono, carrying the Info/LAME tag.
    expect(mpeg2Layer3FrameLength(mp3, 0)).toBeGreaterThan(0);
    expect((mp3[2] as number) & 0x0c).toBe(0x04); // sample rate index 1 = 24 kHz
    expect((mp3[3] as number) >> 6).toBe(3); // channel mode: mono
    expect(new TextDecoder().decode(mp3.subarray(13, 17))).toBe('Info');

    const { left, right, sampleRate } = await decodeMp3(mp3);
    expect(sampleRate).toBe(24000);
    expect(Buffer.from(left.buffer).equals(Buffer.from(right.buffer))).toBe(true); // upmixed mono
    expect(left.length / samples.length).toBeGreaterThan(0.95);
    expect(left.length / samples.length).toBeLessThan(1.05);
    expect(rms(left)).toBeGreaterThan(0.05);

    const first = planSpeech(r).bursts[0];
    if (!first) throw new Error('no burst');
    const pcmHz = estimatePitch(samples, first.start, first.length);
    const mp3Hz = estimatePitch(left, first.start, first.length);
    expect(Math.abs(mp3Hz / pcmHz - 1)).toBeLessThan(0.02);
    // The gapless tag lines the decoded audio up with the PCM: same loudness in the same place.
    const pcmLevel = rms(samples, first.start, first.start + first.length) / 32768;
    const mp3Level = rms(left, first.start, first.start + first.length);
    expect(Math.abs(mp3Level / pcmLevel - 1)).toBeLessThan(0.1);
  });

  it('records encoder delay and padding so decoders can trim them', async () => {
    const samples = synthesizeSamples(req({ input: 'Hi.' }));
    const mp3 = encodeMp3(samples);
    const tag = Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength).indexOf('LAME3.100');
    expect(tag).toBeGreaterThan(13);
    expect(tag).toBeLessThan(mpeg2Layer3FrameLength(mp3, 0)); // inside the first (tag) frame
    const delay = ((mp3[tag + 21] as number) << 4) | ((mp3[tag + 22] as number) >> 4);
    expect(delay).toBe(MP3_ENCODER_DELAY);
    const { left } = await decodeMp3(mp3);
    expect(left.length).toBe(samples.length);
  });
});

describe('createAudioRenderer', () => {
  it('returns cached bytes for repeated requests, with the right metadata', () => {
    const renderer = createAudioRenderer();
    const a = renderer.render({ ...req({ input: 'Cache me.' }), format: 'pcm' });
    const b = renderer.render({ ...req({ input: 'Cache me.' }), format: 'pcm' });
    expect(b).toBe(a);
    expect(b.bytes).toBe(a.bytes);
    expect(a.contentType).toBe('audio/pcm;rate=24000;channels=1');
    expect(a.sampleRate).toBe(24000);
    expect(a.bytes.byteLength).toBe(2 * a.sampleCount);
    expect(a.durationMs).toBeCloseTo((a.sampleCount / 24000) * 1000, 9);
    const m = renderer.render({ ...req({ input: 'Cache me.' }), format: 'mp3' });
    expect(m.contentType).toBe(CONTENT_TYPES.mp3);
    expect(m.contentType).toBe('audio/mpeg');
    expect(m.sampleCount).toBe(a.sampleCount);
    expect(renderer.render({ ...req({ input: 'Cache me.' }), format: 'mp3' })).toBe(m);
    expect(renderer.stats()).toMatchObject({ entries: 2, hits: 2, misses: 2 });
    renderer.clear();
    expect(renderer.stats()).toMatchObject({ entries: 0, bytes: 0 });
    expect(renderer.render({ ...req({ input: 'Cache me.' }), format: 'pcm' })).not.toBe(a);
    expect(() => renderer.render({ ...req(), format: 'wav' as 'pcm' })).toThrow(TypeError);
  });

  it('evicts least recently used renderings to honor the byte bound', () => {
    const input = 'x'.repeat(30); // 2 s → 96,000 bytes of PCM
    const maxCacheBytes = 2 * 96_000 + 1000;
    const renderer = createAudioRenderer({ maxCacheBytes });
    const first = renderer.render({ ...req({ input, seed: 1 }), format: 'pcm' });
    renderer.render({ ...req({ input, seed: 2 }), format: 'pcm' });
    expect(renderer.stats().entries).toBe(2);
    renderer.render({ ...req({ input, seed: 1 }), format: 'pcm' }); // touch seed 1
    renderer.render({ ...req({ input, seed: 3 }), format: 'pcm' }); // evicts seed 2
    const stats = renderer.stats();
    expect(stats.entries).toBe(2);
    expect(stats.evictions).toBe(1);
    expect(stats.bytes).toBeLessThanOrEqual(maxCacheBytes);
    expect(renderer.render({ ...req({ input, seed: 1 }), format: 'pcm' })).toBe(first);
    const misses = renderer.stats().misses;
    renderer.render({ ...req({ input, seed: 2 }), format: 'pcm' });
    expect(renderer.stats().misses).toBe(misses + 1);
  });
});

describe('LruCache', () => {
  it('bounds entries and bytes and refreshes on get', () => {
    const cache = new LruCache<Uint8Array>({ maxBytes: 100, maxEntries: 3 });
    cache.set('a', new Uint8Array(10));
    cache.set('b', new Uint8Array(10));
    cache.set('c', new Uint8Array(10));
    expect(cache.get('a')).toBeDefined(); // a is now most recent
    cache.set('d', new Uint8Array(10)); // entry bound: evicts b
    expect(cache.has('b')).toBe(false);
    expect([cache.size, cache.bytes]).toEqual([3, 30]);
    cache.set('e', new Uint8Array(85)); // byte bound: evicts c, then a
    expect(cache.has('c')).toBe(false);
    expect(cache.has('a')).toBe(false);
    expect(cache.has('d')).toBe(true);
    expect([cache.size, cache.bytes]).toEqual([2, 95]);
    expect(cache.set('huge', new Uint8Array(101))).toBe(false);
    expect(cache.has('huge')).toBe(false);
    cache.set('d', new Uint8Array(5)); // replace adjusts the byte count
    expect(cache.bytes).toBe(90);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});
