/**
 * The render job (src/core/audio/render-job.ts) and the renderer's `open` (src/core/audio/renderer.ts) called as
 * functions: the pieces concatenate to the whole render (`renderBytes`), in PCM and MP3; every size is known from
 * the plan before the first byte (2 bytes a sample for PCM, `mp3ByteLength` for MP3, `sampleCount / 24` ms);
 * readers share one render; a render whose readers all leave stops; at most `MAX_CONCURRENT_MP3_RENDERS` MP3
 * renders encode at once. What a client receives through HTTP is in test/contract.test.ts and
 * test/streaming.test.ts; the pieces of `byteChunks` for many inputs are in test/unit/speech-pieces.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createAudioRenderer, type AudioRequest } from '../../src/core/audio/renderer.js';
import { SAMPLE_RATE, samplesToMs } from '../../src/core/audio/format.js';
import { loadMp3Encoder, mp3ByteLength } from '../../src/core/audio/mp3.js';
import { planSpeech } from '../../src/core/audio/plan.js';
import { MAX_CONCURRENT_MP3_RENDERS, RenderJob, SpeechStream, type RenderJobHooks } from '../../src/core/audio/render-job.js';
import { byteChunks, encodedByteLength, renderBytes } from '../../src/core/audio/stream.js';
import { CHUNK_SAMPLES } from '../../src/core/audio/synthesize.js';
import type { AudioFormat, SynthesisRequest } from '../../src/core/audio/types.js';
import { getVoiceProfile } from '../../src/core/audio/voice.js';

const REQUEST: SynthesisRequest = { input: 'Hello there, this is a test of the render job, piece by piece.', voice: 'alloy', speed: 1, seed: 7 };
const FORMATS: AudioFormat[] = ['pcm', 'mp3'];

// Before each test: another file run earlier in this worker may have left the encoder renewed (idle past its bound).
beforeEach(() => loadMp3Encoder());

/** What a job's hooks saw, in order. */
interface Seen {
  events: string[];
  pieces: Uint8Array[];
  whole: Uint8Array | undefined;
}

/** A job for `request` in `format` (with `byteLength` when given, else the right one), and what its hooks see. */
function job(format: AudioFormat, request: SynthesisRequest = REQUEST, byteLength?: number, name = 'job'): { job: RenderJob; seen: Seen; expected: Uint8Array } {
  const plan = planSpeech(request);
  const voice = getVoiceProfile(request.voice);
  const seen: Seen = { events: [], pieces: [], whole: undefined };
  const hooks: RenderJobHooks = {
    piece: (bytes) => {
      seen.pieces.push(bytes.slice());
      seen.events.push(`${name} piece`);
    },
    complete: (bytes) => {
      seen.whole = bytes;
      seen.events.push(`${name} complete`);
    },
    settled: () => seen.events.push(`${name} settled`),
  };
  const rendered = new RenderJob((output) => byteChunks(plan, voice, format, output), format, byteLength ?? encodedByteLength(format, plan.sampleCount), hooks);
  return { job: rendered, seen, expected: renderBytes(plan, voice, format) };
}

/** Every chunk of `source`, concatenated. */
async function readAll(source: AsyncIterable<Uint8Array>): Promise<{ bytes: Uint8Array; chunks: number }> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk.slice());
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

/** Resolves once `condition` holds, checking after each macrotask (the job yields one between pieces). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('sizes from the plan', () => {
  it.each(FORMATS)('%s: the byte length, sample count and duration are known before the first byte', (format) => {
    const plan = planSpeech(REQUEST);
    const renderer = createAudioRenderer();
    const opened = renderer.open({ ...REQUEST, format });
    expect(opened.sampleCount).toBe(plan.sampleCount);
    expect(opened.durationMs).toBe(samplesToMs(plan.sampleCount));
    expect(opened.durationMs).toBeCloseTo((plan.sampleCount / SAMPLE_RATE) * 1000, 9);
    expect(opened.byteLength).toBe(format === 'pcm' ? plan.sampleCount * 2 : mp3ByteLength(plan.sampleCount));
    expect((opened.body as SpeechStream).byteLength).toBe(opened.byteLength);
    expect((opened.body as SpeechStream).durationMs).toBe(opened.durationMs);
    expect(opened.contentType).toBe(format === 'pcm' ? 'audio/pcm;rate=24000;channels=1' : 'audio/mpeg');
    expect(renderer.stats()).toMatchObject({ misses: 1, streamedBytes: 0 });
  });
});

describe('RenderJob', () => {
  it.each(FORMATS)('%s: the pieces concatenate to the whole render; piece, complete and settled are reported in order', async (format) => {
    const { job: rendering, seen, expected } = job(format);
    const { bytes, chunks } = await readAll(rendering.read());
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    expect(chunks).toBe(seen.pieces.length);
    expect(chunks).toBeGreaterThan(2);
    expect(Buffer.concat(seen.pieces).equals(Buffer.from(expected))).toBe(true);
    expect(Buffer.from(seen.whole!).equals(Buffer.from(expected))).toBe(true);
    expect(seen.events).toEqual([...Array<string>(chunks).fill('job piece'), 'job complete', 'job settled']);
    expect(rendering.joinable).toBe(true);
  });

  it('renders PCM pieces of at least CHUNK_SAMPLES samples but the last, longer by at most one burst', async () => {
    const { job: rendering, seen } = job('pcm');
    await readAll(rendering.read());
    const longestBurst = Math.max(...planSpeech(REQUEST).bursts.map((burst) => burst.length));
    const sizes = seen.pieces.map((piece) => piece.byteLength);
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(CHUNK_SAMPLES * 2);
    for (const size of sizes) {
      expect(size % 2).toBe(0);
      expect(size).toBeLessThanOrEqual((CHUNK_SAMPLES + longestBurst) * 2);
    }
  });

  it.each(FORMATS)('%s: readers share one render, and a reader joining after the end gets every piece', async (format) => {
    const { job: rendering, seen, expected } = job(format);
    const [a, b] = await Promise.all([readAll(rendering.read()), readAll(rendering.read())]);
    const late = await readAll(rendering.read());
    for (const read of [a, b, late]) expect(Buffer.from(read.bytes).equals(Buffer.from(expected))).toBe(true);
    expect(seen.events.filter((event) => event === 'job complete')).toHaveLength(1);
    expect(Buffer.concat(seen.pieces).byteLength).toBe(expected.byteLength);
  });

  it.each(FORMATS)('%s: stops when its only reader leaves early; it is then not joinable and a new reader fails', async (format) => {
    const { job: rendering, seen } = job(format, { ...REQUEST, input: REQUEST.input.repeat(4) });
    const reader = rendering.read();
    expect((await reader.next()).done).toBe(false);
    await reader.return(undefined);
    await until(() => seen.events.includes('job settled'));
    expect(seen.events).not.toContain('job complete');
    expect(rendering.joinable).toBe(false);
    const total = encodedByteLength(format, planSpeech({ ...REQUEST, input: REQUEST.input.repeat(4) }).sampleCount);
    expect(Buffer.concat(seen.pieces).byteLength).toBeLessThan(total);
    await expect(readAll(rendering.read())).rejects.toThrow('speech render stopped');
  });

  it('keeps rendering while another reader is left', async () => {
    const { job: rendering, seen, expected } = job('pcm');
    const leaving = rendering.read();
    const staying = readAll(rendering.read());
    await leaving.next();
    await leaving.return(undefined);
    expect(Buffer.from((await staying).bytes).equals(Buffer.from(expected))).toBe(true);
    expect(seen.events.at(-2)).toBe('job complete');
  });

  it('fails every reader when the pieces overrun the length it was given, or end short of it', async () => {
    const plan = planSpeech(REQUEST);
    const short = job('pcm', REQUEST, plan.sampleCount * 2 - 2);
    await expect(readAll(short.job.read())).rejects.toThrow(RangeError);
    expect(short.seen.events.at(-1)).toBe('job settled');
    expect(short.job.joinable).toBe(false);
    const long = job('pcm', REQUEST, plan.sampleCount * 2 + 2);
    await expect(readAll(long.job.read())).rejects.toThrow('speech render ended short of its length');
    expect(long.seen.events).not.toContain('job complete');
  });

  it(`encodes at most ${MAX_CONCURRENT_MP3_RENDERS} MP3 renders at once; the next starts when one ends`, async () => {
    const events: string[] = [];
    const jobs = Array.from({ length: MAX_CONCURRENT_MP3_RENDERS + 1 }, (_, index) => {
      const made = job('mp3', { ...REQUEST, seed: index }, undefined, `job${index}`);
      made.seen.events = events;
      return made;
    });
    const reads = await Promise.all(jobs.map((made) => readAll(made.job.read())));
    reads.forEach((read, index) => expect(Buffer.from(read.bytes).equals(Buffer.from(jobs[index]!.expected))).toBe(true));
    const last = `job${MAX_CONCURRENT_MP3_RENDERS}`;
    expect(events.indexOf(`${last} piece`)).toBeGreaterThan(events.findIndex((event) => event.endsWith('settled')));
  });
});

describe('SpeechStream and the renderer', () => {
  it('SpeechStream reads what its join gives when iterated, not before', async () => {
    let joined = 0;
    const bytes = Uint8Array.of(1, 2, 3);
    const stream = new SpeechStream(3, 1000, () => {
      joined++;
      return (async function* () {
        yield bytes;
      })();
    });
    expect(joined).toBe(0);
    expect([...(await readAll(stream)).bytes]).toEqual([1, 2, 3]);
    expect(joined).toBe(1);
  });

  it.each(FORMATS)('%s: identical requests in flight share one render, which then answers from the cache', async (format) => {
    const renderer = createAudioRenderer();
    const request: AudioRequest = { ...REQUEST, format };
    const [a, b] = [renderer.open(request), renderer.open(request)];
    const [readA, readB] = await Promise.all([readAll(a.body), readAll(b.body)]);
    const whole = renderer.render(request).bytes;
    expect(Buffer.from(readA.bytes).equals(Buffer.from(whole))).toBe(true);
    expect(Buffer.from(readB.bytes).equals(Buffer.from(whole))).toBe(true);
    expect(renderer.stats()).toMatchObject({ misses: 2, hits: 1, entries: 1, streamedBytes: a.byteLength });
    const cached = renderer.open(request);
    expect(Buffer.from((await readAll(cached.body)).bytes).equals(Buffer.from(whole))).toBe(true);
    expect(renderer.stats()).toMatchObject({ hits: 2, streamedBytes: a.byteLength });
  });

  it('streams the bytes a whole render gives, for another voice, speed and seed', async () => {
    const request: AudioRequest = { input: 'Quick brown fox.', voice: 'onyx', speed: 1.5, seed: 99, format: 'mp3' };
    const streamed = await readAll(createAudioRenderer({ maxCacheEntries: 0 }).open(request).body);
    const whole = createAudioRenderer().render(request).bytes;
    expect(Buffer.from(streamed.bytes).equals(Buffer.from(whole))).toBe(true);
  });
});
