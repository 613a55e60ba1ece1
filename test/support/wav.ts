/**
 * PCM in a WAV file, as a client saves the simulator's speech to disk: the dashboard's own writer (`pcmToWav` of
 * `ui/src/audio.ts`: a 44-byte RIFF/WAVE header, format 1, then the samples as they are), which imports nothing, so a
 * browser page bundled by a test can use it too.
 *
 * @module
 */
import { pcmToWav } from '../../ui/src/audio.js';

/**
 * `pcm` (16-bit little-endian samples) with a WAV header.
 *
 * @param rate samples a second, Hz (default 24,000, the simulator's PCM).
 * @param channels interleaved channels (default 1).
 */
export function wavOf(pcm: Uint8Array, rate = 24_000, channels = 1): Uint8Array<ArrayBuffer> {
  return pcmToWav(pcm, rate, channels) as Uint8Array<ArrayBuffer>;
}
