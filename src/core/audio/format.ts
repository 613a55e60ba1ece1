/**
 * Output audio format of the mock speech endpoint (`POST /api/v1/audio/speech`).
 *
 * These mirror what OpenRouter returns: `pcm` is raw 24 kHz, 16-bit signed
 * little-endian, mono samples with no header, served as
 * `Content-Type: audio/pcm;rate=24000;channels=1`; `mp3` is served as
 * `Content-Type: audio/mpeg`.
 *
 * @module
 */

import type { AudioFormat } from './types.js';

/** Output sample rate in Hz (OpenRouter PCM is 24 kHz). Used for MP3 too. */
export const SAMPLE_RATE = 24000 as const;

/** Number of channels (mono). */
const CHANNELS = 1 as const;

/**
 * HTTP `Content-Type` per format, exactly as OpenRouter sends them:
 * `audio/mpeg` for mp3 and `audio/pcm;rate=24000;channels=1` for pcm.
 */
export const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = Object.freeze({
  mp3: 'audio/mpeg',
  pcm: `audio/pcm;rate=${SAMPLE_RATE};channels=${CHANNELS}`,
});

/**
 * Converts a sample count at {@link SAMPLE_RATE} to milliseconds.
 *
 * @param sampleCount number of mono samples (≥ 0).
 * @returns duration in ms (not rounded).
 */
export function samplesToMs(sampleCount: number): number {
  return (sampleCount * 1000) / SAMPLE_RATE;
}
