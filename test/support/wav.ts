/**
 * PCM in a WAV file, as a client saves the simulator's speech to disk: a 44-byte RIFF/WAVE header (format 1, PCM),
 * then the samples as they are. It has no imports, so a browser page bundled by a test can use it too.
 *
 * @module
 */

/**
 * `pcm` (16-bit little-endian samples) with a WAV header.
 *
 * @param rate samples a second, Hz (default 24,000, the simulator's PCM).
 * @param channels interleaved channels (default 1).
 */
export function wavOf(pcm: Uint8Array, rate = 24_000, channels = 1): Uint8Array<ArrayBuffer> {
  const wav = new Uint8Array(44 + pcm.byteLength);
  const view = new DataView(wav.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) wav[at + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + pcm.byteLength, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, pcm.byteLength, true);
  wav.set(pcm, 44);
  return wav;
}
