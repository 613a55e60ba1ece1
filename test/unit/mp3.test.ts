/**
 * The WebAssembly MP3 encoder (src/core/audio/mp3*.ts): decoded with mpg123-decoder (24 kHz, mono, exact length,
 * pitch), split invariance, exact byte length, concurrent streams, errors.
 */
import { execFileSync } from 'node:child_process';
import { MPEGDecoder } from 'mpg123-decoder';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createMp3Stream, encodeMp3 } from '../../src/core/audio/mp3-stream.js';
import {
  MP3_ENCODER_DELAY,
  MP3_FRAME_BYTES,
  MP3_FRAME_HEADER,
  buildInfoFrame,
  crc16,
  mp3ByteLength,
  mp3EndPadding,
  mpeg2Layer3FrameLength,
} from '../../src/core/audio/mp3-tag.js';
import { loadMp3Encoder, mp3EncoderReady } from '../../src/core/audio/lame-instance.js';
import { sha256Hex } from '../support/sha256.js';

const RATE = 24_000;

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sine(count: number, hz: number, amplitude = 0.5): Int16Array {
  const out = new Int16Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / RATE));
  return out;
}

/** A tone that changes pitch and loudness, with noise: something LAME has to work at. */
function speechLike(count: number, seed: number): Int16Array {
  const next = random(seed);
  const out = new Int16Array(count);
  let phase = 0;
  for (let i = 0; i < count; i++) {
    const hz = 120 + 80 * Math.sin(i / 7000);
    phase += (2 * Math.PI * hz) / RATE;
    const envelope = 0.5 + 0.5 * Math.sin(i / 1900);
    out[i] = Math.round(12000 * envelope * (Math.sin(phase) + 0.3 * Math.sin(3 * phase)) + 800 * (next() - 0.5));
  }
  return out;
}

async function decode(bytes: Uint8Array): Promise<{ samples: Float32Array; sampleRate: number; errors: unknown[] }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, sampleRate, errors } = decoder.decode(bytes);
    return { samples: channelData[0] ?? new Float32Array(0), sampleRate, errors };
  } finally {
    decoder.free();
  }
}

function streamed(samples: Int16Array, cuts: readonly number[]): { bytes: Uint8Array } {
  const stream = createMp3Stream(samples.length);
  const pieces = [stream.header];
  let at = 0;
  for (const cut of [...cuts, samples.length]) {
    pieces.push(stream.encode(samples.subarray(at, cut)));
    at = cut;
  }
  pieces.push(stream.finish());
  return { bytes: Buffer.concat(pieces) };
}

describe('before loadMp3Encoder()', () => {
  it('reports not ready and refuses to encode', () => {
    expect(mp3EncoderReady()).toBe(false);
    expect(() => createMp3Stream(10)).toThrow(/loadMp3Encoder/);
    expect(() => encodeMp3(new Int16Array(10))).toThrow(/loadMp3Encoder/);
    // Layout needs no encoder.
    expect(mp3ByteLength(24_000)).toBe(8_640);
  });

  it('loads once (the same promise), without fetch: an msw server failing unhandled requests does not see it', async () => {
    const server = setupServer(http.get('https://example.test/', () => HttpResponse.json({})));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const a = loadMp3Encoder();
      expect(loadMp3Encoder()).toBe(a);
      await a;
    } finally {
      server.close();
    }
    expect(mp3EncoderReady()).toBe(true);
  });
});

describe('encodeMp3', () => {
  it('decodes to 24 kHz mono of exactly the input length, not silent, at the same pitch (440 Hz)', async () => {
    await loadMp3Encoder();
    const samples = sine(RATE * 2 + 123, 440);
    const mp3 = encodeMp3(samples);
    expect(mp3.length).toBe(mp3ByteLength(samples.length));
    expect(Array.from(mp3.subarray(0, 4))).toEqual(Array.from(MP3_FRAME_HEADER));
    expect(((mp3[2] as number) >> 2) & 3).toBe(1); // sample-rate index 1 of MPEG-2: 24 kHz
    expect((mp3[3] as number) >> 6).toBe(3); // mono

    const { samples: out, sampleRate, errors } = await decode(mp3);
    expect(errors).toEqual([]);
    expect(sampleRate).toBe(RATE);
    expect(out.length).toBe(samples.length); // exact: the tag's delay and padding are trimmed
    let energy = 0;
    for (const s of out) energy += s * s;
    expect(Math.sqrt(energy / out.length)).toBeGreaterThan(0.3); // 0.5 amplitude sine: RMS 0.35

    // Pitch: rising zero crossings over the middle second.
    let crossings = 0;
    for (let i = RATE / 2; i < RATE * 1.5; i++) if ((out[i - 1] as number) < 0 && (out[i] as number) >= 0) crossings++;
    expect(Math.abs(crossings - 440)).toBeLessThanOrEqual(1);
    // Aligned with the input: decoded and original agree sample by sample (lossy, so within a margin).
    let diff = 0;
    for (let i = RATE / 2; i < RATE * 1.5; i++) diff += ((out[i] as number) - (samples[i] as number) / 32768) ** 2;
    expect(Math.sqrt(diff / RATE)).toBeLessThan(0.05);
  });

  it('every frame is a 192-byte 64 kbps frame with the same header; the first carries the Info/LAME tag', async () => {
    await loadMp3Encoder();
    const samples = speechLike(RATE * 3, 7);
    const mp3 = encodeMp3(samples);
    let frames = 0;
    for (let at = 0; at < mp3.length; at += MP3_FRAME_BYTES, frames++) {
      expect(mpeg2Layer3FrameLength(mp3, at)).toBe(MP3_FRAME_BYTES);
      expect(Array.from(mp3.subarray(at, at + 4))).toEqual(Array.from(MP3_FRAME_HEADER));
    }
    expect(frames * MP3_FRAME_BYTES).toBe(mp3.length);

    const text = Buffer.from(mp3.subarray(0, MP3_FRAME_BYTES)).toString('latin1');
    expect(text.indexOf('Info')).toBe(13);
    const view = new DataView(mp3.buffer, mp3.byteOffset, MP3_FRAME_BYTES);
    expect(view.getUint32(21)).toBe(frames - 1); // audio frames
    expect(view.getUint32(25)).toBe(mp3.length); // bytes
    const lame = text.indexOf('LAME3.100');
    expect(lame).toBe(133);
    const delay = ((mp3[lame + 21] as number) << 4) | ((mp3[lame + 22] as number) >> 4);
    const padding = (((mp3[lame + 22] as number) & 0xf) << 8) | (mp3[lame + 23] as number);
    expect(delay).toBe(MP3_ENCODER_DELAY);
    expect(padding).toBe(mp3EndPadding(samples.length));
    expect((frames - 1) * 576).toBe(delay + samples.length + padding);
    expect(view.getUint32(lame + 28)).toBe(mp3.length); // music length
    expect(view.getUint16(lame + 32)).toBe(0); // music CRC: unknown before encoding
    expect(view.getUint16(lame + 34)).toBe(crc16(mp3, 0, lame + 34)); // tag CRC
    expect(Buffer.from(buildInfoFrame(samples.length)).equals(Buffer.from(mp3.subarray(0, MP3_FRAME_BYTES)))).toBe(true);
  });

  it('decodes to exactly the input length for short and odd lengths', async () => {
    await loadMp3Encoder();
    for (const n of [1, 575, 576, 577, 1151, 1152, 1153, 2000, 4711]) {
      const { samples, errors } = await decode(encodeMp3(sine(n, 300)));
      expect(errors, `${n} samples`).toEqual([]);
      expect(samples.length, `${n} samples`).toBe(n);
    }
  });

  it('encodes zero samples as a valid, silent stream', async () => {
    await loadMp3Encoder();
    const mp3 = encodeMp3(new Int16Array(0));
    expect(mp3.length).toBe(mp3ByteLength(0));
    expect(mp3.length).toBe(3 * MP3_FRAME_BYTES);
    const { samples, errors } = await decode(mp3);
    expect(errors).toEqual([]);
    expect(samples.length).toBe(0);
  });
});

describe('mp3ByteLength', () => {
  it('equals the encoded length for every tested length, up to 5 minutes', async () => {
    await loadMp3Encoder();
    const next = random(42);
    const lengths = [0, 1, 575, 576, 577, 1151, 1152, 1153, 1727, 1728, 1729, RATE, RATE * 10 + 1, RATE * 300];
    for (let i = 0; i < 8; i++) lengths.push(Math.floor(next() * RATE * 20));
    const long = speechLike(RATE * 300, 3);
    for (const n of lengths) {
      expect(encodeMp3(long.subarray(0, n)).length, `${n} samples`).toBe(mp3ByteLength(n));
    }
    expect(mp3ByteLength(RATE * 300)).toBe(2_400_576);
  });

  it('rejects counts that are not non-negative integers', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => mp3ByteLength(bad)).toThrow(RangeError);
      expect(() => createMp3Stream(bad)).toThrow(RangeError);
    }
  });
});

describe('createMp3Stream', () => {
  it('gives the same bytes however the samples are split (random splits)', async () => {
    await loadMp3Encoder();
    const samples = speechLike(RATE * 4 + 333, 11);
    const whole = encodeMp3(samples);
    const next = random(5);
    for (let round = 0; round < 12; round++) {
      const cuts = new Set<number>();
      const count = Math.floor(next() * 40);
      for (let i = 0; i < count; i++) cuts.add(Math.floor(next() * samples.length));
      if (round === 0) for (let i = 1; i < 200; i++) cuts.add(i); // many tiny pieces and empty ones
      const { bytes } = streamed(
        samples,
        [...cuts].sort((a, b) => a - b),
      );
      expect(bytes.length).toBe(whole.length);
      expect(Buffer.from(bytes).equals(Buffer.from(whole)), `round ${round}`).toBe(true);
    }
    // One sample at a time for the first 3,000 samples.
    const cuts = Array.from({ length: 3000 }, (_, i) => i + 1);
    expect(Buffer.from(streamed(samples, cuts).bytes).equals(Buffer.from(whole))).toBe(true);
  });

  it('keeps interleaved streams independent', async () => {
    await loadMp3Encoder();
    const inputs = [speechLike(RATE * 2, 1), sine(RATE * 3 + 17, 440), speechLike(RATE + 5, 2), new Int16Array(999)];
    const expected = inputs.map((s) => encodeMp3(s));
    const streams = inputs.map((s) => ({ s, stream: createMp3Stream(s.length), at: 0, out: [] as Uint8Array[] }));
    for (const x of streams) x.out.push(x.stream.header);
    const next = random(9);
    while (streams.some((x) => x.at < x.s.length)) {
      for (const x of streams) {
        const take = Math.min(x.s.length - x.at, Math.floor(next() * 5000));
        x.out.push(x.stream.encode(x.s.subarray(x.at, x.at + take)));
        x.at += take;
      }
    }
    streams.forEach((x, i) => {
      x.out.push(x.stream.finish());
      expect(Buffer.concat(x.out).equals(Buffer.from(expected[i] as Uint8Array)), `stream ${i}`).toBe(true);
    });
  });

  it('returns copies the caller owns', async () => {
    await loadMp3Encoder();
    const samples = sine(RATE, 220);
    const stream = createMp3Stream(samples.length);
    const first = stream.encode(samples.subarray(0, RATE / 2));
    const copy = Uint8Array.from(first);
    createMp3Stream(RATE).encode(sine(RATE, 880)); // another stream writes the shared WebAssembly memory
    stream.encode(samples.subarray(RATE / 2));
    expect(Buffer.from(first).equals(Buffer.from(copy))).toBe(true);
    stream.finish();
  });

  it('throws on too many or too few samples, and after finish() or abort()', async () => {
    await loadMp3Encoder();
    const over = createMp3Stream(100);
    over.encode(new Int16Array(60));
    expect(() => over.encode(new Int16Array(41))).toThrow(RangeError);
    expect(() => over.finish()).toThrow(/aborted/); // a stream that threw is released

    const under = createMp3Stream(100);
    under.encode(new Int16Array(99));
    expect(() => under.finish()).toThrow(RangeError);

    const done = createMp3Stream(10);
    done.encode(new Int16Array(10));
    done.finish();
    expect(() => done.encode(new Int16Array(0))).toThrow(/finished/);
    expect(() => done.finish()).toThrow(/finished/);

    const gone = createMp3Stream(10);
    gone.abort();
    gone.abort();
    expect(() => gone.encode(new Int16Array(1))).toThrow(/aborted/);
    expect(() => gone.finish()).toThrow(/aborted/);
  });

  it('gives byte-identical bytes in another process', async () => {
    await loadMp3Encoder();
    const script = [
      "import { encodeMp3, loadMp3Encoder } from './src/core/audio/mp3.ts';",
      "import { createHash } from 'node:crypto';",
      'await loadMp3Encoder();',
      'const s = new Int16Array(48000); let x = 1;',
      'for (let i = 0; i < s.length; i++) { x = (x * 1103515245 + 12345) % 2147483648; s[i] = Math.round(9000 * Math.sin(i / 9)) + (x % 2000) - 1000; }',
      "console.log(createHash('sha256').update(encodeMp3(s)).digest('hex'));",
    ].join('\n');
    const other = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: new URL('../..', import.meta.url),
    }).trim();
    const s = new Int16Array(48000);
    let x = 1;
    for (let i = 0; i < s.length; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      s[i] = Math.round(9000 * Math.sin(i / 9)) + (x % 2000) - 1000;
    }
    expect(other).toBe(sha256Hex(encodeMp3(s)));
  });
});
