/**
 * A speech answer's audio for the page: something the `<audio>` element plays (MP3 as it is; PCM wrapped in a
 * WAV header) and the samples for the waveform (PCM read straight from its 16-bit samples, MP3 decoded with Web
 * Audio's `decodeAudioData`).
 */

/** Parameters of a `audio/pcm;rate=24000;channels=1` content type (defaults 24 kHz mono). */
export function pcmParameters(contentType: string): { rate: number; channels: number } {
  const param = (name: string, fallback: number) => {
    const match = new RegExp(`[;\\s]${name}\\s*=\\s*(\\d+)`, 'i').exec(contentType);
    return match ? Number(match[1]) : fallback;
  };
  return { rate: param('rate', 24_000), channels: param('channels', 1) };
}

/** 16-bit little-endian PCM as a WAV file (44-byte header, then the samples as they are). */
export function pcmToWav(pcm: Uint8Array, rate: number, channels: number): Uint8Array {
  const dataBytes = pcm.byteLength - (pcm.byteLength % (2 * channels));
  const wav = new Uint8Array(44 + dataBytes);
  const view = new DataView(wav.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) wav[offset + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  wav.set(pcm.subarray(0, dataBytes), 44);
  return wav;
}

/** The first channel of 16-bit little-endian PCM as floats in [-1, 1]. */
export function pcmSamples(pcm: Uint8Array, channels: number): Float32Array {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const frames = Math.floor(pcm.byteLength / (2 * channels));
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) out[i] = view.getInt16(i * 2 * channels, true) / 32768;
  return out;
}

/** Decodes compressed audio (MP3) to the samples of its first channel, without an AudioContext that could play. */
export async function decodeSamples(encoded: ArrayBuffer): Promise<{ samples: Float32Array; rate: number; duration: number }> {
  const context = new OfflineAudioContext(1, 1, 44_100);
  const buffer = await context.decodeAudioData(encoded);
  return { samples: buffer.getChannelData(0), rate: buffer.sampleRate, duration: buffer.duration };
}

/** The speech answer, ready for the player and the waveform. */
export interface LoadedAudio {
  /** An object URL the player plays (revoke it when done). */
  url: string;
  samples: Float32Array;
  /** Seconds, from the samples. */
  duration: number;
  contentType: string;
  byteLength: number;
}

/**
 * Makes a {@link LoadedAudio} of the answer's bytes and content type.
 *
 * @throws when MP3 cannot be decoded.
 */
export async function loadAudio(bytes: ArrayBuffer, contentType: string): Promise<LoadedAudio> {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'audio/pcm' || type === 'audio/l16') {
    const { rate, channels } = pcmParameters(contentType);
    const pcm = new Uint8Array(bytes);
    const samples = pcmSamples(pcm, channels);
    const url = URL.createObjectURL(new Blob([pcmToWav(pcm, rate, channels) as Uint8Array<ArrayBuffer>], { type: 'audio/wav' }));
    return { url, samples, duration: samples.length / rate, contentType, byteLength: bytes.byteLength };
  }
  const url = URL.createObjectURL(new Blob([bytes], { type: type || 'audio/mpeg' }));
  try {
    const { samples, duration } = await decodeSamples(bytes.slice(0));
    return { url, samples, duration, contentType, byteLength: bytes.byteLength };
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/** Per column of a `columns`-wide drawing, the lowest and highest sample: `[min0, max0, min1, max1, ...]`. */
export function peaks(samples: Float32Array, columns: number): Float32Array {
  const out = new Float32Array(columns * 2);
  const per = samples.length / columns;
  for (let c = 0; c < columns; c++) {
    const start = Math.floor(c * per);
    const end = Math.max(start + 1, Math.floor((c + 1) * per));
    let min = 0;
    let max = 0;
    for (let i = start; i < end && i < samples.length; i++) {
      const s = samples[i]!;
      if (s < min) min = s;
      if (s > max) max = s;
    }
    out[c * 2] = min;
    out[c * 2 + 1] = max;
  }
  return out;
}
