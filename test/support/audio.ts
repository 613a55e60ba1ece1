/** Decoding helpers for tests: PCM bytes to samples, MP3 through mpg123-decoder (no system tools). */
import { MPEGDecoder } from 'mpg123-decoder';
import { buildInfoFrame } from '../../src/core/audio/mp3-tag.js';

/** 16-bit signed little-endian bytes → samples in [-1, 1). */
export function pcmToFloat(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/** Decodes an MP3 to mono samples and its sample rate. */
export async function decodeMp3(bytes: Uint8Array): Promise<{ samples: Float32Array; sampleRate: number; channels: number }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, sampleRate } = decoder.decode(bytes);
    return { samples: channelData[0] ?? new Float32Array(0), sampleRate, channels: channelData.length };
  } finally {
    decoder.free();
  }
}

/** Root mean square of samples. */
export function rms(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/**
 * Estimates the fundamental frequency (Hz) of the loudest 100 ms window by autocorrelation over 60–500 Hz.
 */
export function fundamentalHz(samples: Float32Array, sampleRate: number): number {
  const win = Math.floor(sampleRate / 10);
  let best = 0;
  let bestEnergy = -1;
  for (let start = 0; start + win <= samples.length; start += win >> 1) {
    let e = 0;
    for (let i = start; i < start + win; i++) e += (samples[i] ?? 0) ** 2;
    if (e > bestEnergy) {
      bestEnergy = e;
      best = start;
    }
  }
  const frame = samples.subarray(best, best + win);
  const minLag = Math.floor(sampleRate / 500);
  const maxLag = Math.floor(sampleRate / 60);
  let bestLag = minLag;
  let bestCorr = -Infinity;
  for (let lag = minLag; lag <= maxLag; lag++) {
    let c = 0;
    for (let i = 0; i + lag < frame.length; i++) c += (frame[i] ?? 0) * (frame[i + lag] ?? 0);
    c /= frame.length - lag;
    if (c > bestCorr * 1.0001) {
      bestCorr = c;
      bestLag = lag;
    }
  }
  return sampleRate / bestLag;
}

/** Reads a whole response body to bytes. */
export async function bytesOf(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * The samples an MP3 of this simulator says, read from its tag frame (the one count whose tag is its first 192 bytes).
 *
 * @throws Error when the first frame is no tag frame of this simulator.
 */
export function taggedSamples(bytes: Uint8Array): number {
  const frames = bytes.byteLength / 192 - 1;
  const head = Buffer.from(bytes.subarray(0, 192));
  for (let n = Math.max(0, (frames - 3) * 576 + 1); n <= (frames - 2) * 576; n++) if (head.equals(buildInfoFrame(n))) return n;
  throw new Error(`the first frame of these ${bytes.byteLength} bytes is not the tag frame of any sample count`);
}
