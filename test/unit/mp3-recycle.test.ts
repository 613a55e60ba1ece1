/**
 * The WebAssembly LAME instance is renewed once it is idle and its memory has grown past 32 MiB
 * (`src/core/audio/lame-instance.ts`): WebAssembly memory never shrinks, so only a fresh instance gives it back. In a
 * file of its own: the instance is the module's state.
 */
import { describe, expect, it } from 'vitest';
import { createMp3Stream, encodeMp3 } from '../../src/core/audio/mp3-stream.js';
import { loadMp3Encoder, mp3EncoderMemoryBytes, mp3EncoderReady } from '../../src/core/audio/lame-instance.js';

const MIB = 1024 * 1024;
/** The bound of mp3-wasm.ts's `RECYCLE_BYTES`. */
const RECYCLE_BYTES = 32 * MIB;

/** One second of a 440 Hz tone at 24 kHz. */
const samples = Int16Array.from({ length: 24_000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24_000)));

describe('the MP3 encoder instance past 32 MiB', () => {
  it('is kept while a stream is open, renewed when the last one closes, and encodes the same bytes after', async () => {
    await loadMp3Encoder();
    const fresh = mp3EncoderMemoryBytes();
    expect(fresh).toBeGreaterThan(0);
    expect(fresh).toBeLessThanOrEqual(RECYCLE_BYTES);
    const reference = encodeMp3(samples);

    // Streams open at once grow the memory (about 1.9 MB each) until it is past the bound.
    const open = [];
    while (mp3EncoderMemoryBytes() <= RECYCLE_BYTES) {
      open.push(createMp3Stream(samples.length));
      expect(open.length).toBeLessThan(64);
    }
    const grown = mp3EncoderMemoryBytes();
    for (const stream of open.slice(1)) stream.abort();
    expect(mp3EncoderReady()).toBe(true);
    expect(mp3EncoderMemoryBytes()).toBe(grown);

    // The last stream finishes normally: nothing is open, the instance is dropped.
    const last = open[0]!;
    last.encode(samples);
    last.finish();
    expect(mp3EncoderReady()).toBe(false);
    expect(mp3EncoderMemoryBytes()).toBe(0);
    expect(() => createMp3Stream(1)).toThrow(/not loaded/);

    await loadMp3Encoder();
    expect(mp3EncoderMemoryBytes()).toBe(fresh);
    expect(encodeMp3(samples)).toEqual(reference);
  });

  it('is not renewed while idle below 32 MiB', async () => {
    await loadMp3Encoder();
    const before = mp3EncoderMemoryBytes();
    expect(before).toBeLessThanOrEqual(RECYCLE_BYTES);
    encodeMp3(samples);
    expect(mp3EncoderReady()).toBe(true);
    expect(mp3EncoderMemoryBytes()).toBe(before);
  });
});
