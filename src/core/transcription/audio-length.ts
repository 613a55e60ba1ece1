/**
 * What a transcription request's audio is, read from its bytes alone: whether the bytes are of the format the
 * request names (for the formats whose start is unmistakable: WAV, MP3, FLAC, Ogg), how long the audio plays,
 * and, for WAV, where its samples are (so PCM the simulator said, saved with a WAV header, is known again).
 *
 * Sources: the RIFF/WAVE layout (`RIFF` size `WAVE`, then chunks, `fmt ` and `data`; Microsoft's "Multimedia
 * Programming Interface and Data Specifications 1.0"), and the MPEG-1/2/2.5 Layer III frame header (ISO/IEC 11172-3
 * and 13818-3: sync, version, layer, bitrate and sample-rate indexes, padding), with an ID3v2 tag skipped before it.
 *
 * @module
 */

/** Audio formats a transcription request may name (`input_audio.format`, or a file's extension): the gateway's list plus `pcm`. */
export const TRANSCRIPTION_FORMATS = ['wav', 'mp3', 'flac', 'm4a', 'mp4', 'mpeg', 'mpga', 'ogg', 'oga', 'opus', 'webm', 'aac', 'pcm'] as const;

/** One of {@link TRANSCRIPTION_FORMATS}. */
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];

/** Bytes per second assumed for audio whose length cannot be read from its bytes (128 kbps, a common compressed rate). */
const ASSUMED_BYTES_PER_SECOND = 16_000;

/** The simulator's own PCM: 24,000 Hz, 16-bit, mono (`createAudioSpeech`'s `pcm`). */
const OWN_PCM_BYTES_PER_SECOND = 48_000;

/**
 * What {@link readAudio} found.
 *
 * - `seconds`: how long the audio plays; `exact` says whether it was read from the bytes (WAV, PCM, MP3 frames) or
 *   estimated from the size at 16,000 bytes a second.
 * - `samples`: for WAV, the bytes of its `data` chunk, and whether they are 24,000 Hz 16-bit mono (the simulator's
 *   own PCM); else undefined.
 */
export interface AudioFacts {
  readonly seconds: number;
  readonly exact: boolean;
  readonly samples?: { readonly bytes: Uint8Array; readonly ownPcm: boolean } | undefined;
}

/**
 * Reads `bytes` as `format`.
 *
 * @returns the facts, or a sentence saying why the bytes are not of that format (for `wav`, `mp3`, `flac` and `ogg`,
 *   whose first bytes are fixed); other formats are taken as named, their length estimated by size.
 * @example readAudio(wavBytes, 'wav') // { seconds: 1.5, exact: true, samples: { bytes, ownPcm: true } }
 */
export function readAudio(bytes: Uint8Array, format: TranscriptionFormat): AudioFacts | string {
  switch (format) {
    case 'wav':
      return readWav(bytes);
    case 'mp3':
    case 'mpeg':
    case 'mpga':
      return readMp3(bytes);
    case 'pcm':
      return { seconds: bytes.byteLength / OWN_PCM_BYTES_PER_SECOND, exact: true };
    case 'flac':
      return startsWith(bytes, 'fLaC') ? estimated(bytes) : 'not a FLAC file (it does not start with "fLaC")';
    case 'ogg':
    case 'oga':
    case 'opus':
      return startsWith(bytes, 'OggS') ? estimated(bytes) : 'not an Ogg file (it does not start with "OggS")';
    default:
      return estimated(bytes);
  }
}

function estimated(bytes: Uint8Array): AudioFacts {
  return { seconds: bytes.byteLength / ASSUMED_BYTES_PER_SECOND, exact: false };
}

function startsWith(bytes: Uint8Array, text: string, at = 0): boolean {
  if (bytes.byteLength < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
}

function u16(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

/** Chunks walked at most before a WAV without `data` is refused: a bound on the work of a hostile file. */
const MAX_WAV_CHUNKS = 64;

/**
 * A RIFF/WAVE file: its `fmt ` chunk (PCM or WAVE_FORMAT_EXTENSIBLE, channels, sample rate, bits per sample) and
 * its `data` chunk. A `data` chunk that claims more bytes than follow (a stream whose header was written first,
 * with a placeholder length) is read to the end of the bytes.
 */
function readWav(bytes: Uint8Array): AudioFacts | string {
  if (!startsWith(bytes, 'RIFF') || !startsWith(bytes, 'WAVE', 8)) return 'not a WAV file (it does not start with a RIFF/WAVE header)';
  let at = 12;
  let format: { channels: number; rate: number; bits: number; pcm: boolean } | undefined;
  for (let chunks = 0; chunks < MAX_WAV_CHUNKS && at + 8 <= bytes.byteLength; chunks++) {
    const size = u32(bytes, at + 4);
    const body = at + 8;
    if (startsWith(bytes, 'fmt ', at)) {
      if (size < 16 || body + 16 > bytes.byteLength) return 'not a WAV file (its fmt chunk is shorter than 16 bytes)';
      const tag = u16(bytes, body);
      format = { channels: u16(bytes, body + 2), rate: u32(bytes, body + 4), bits: u16(bytes, body + 14), pcm: tag === 1 || tag === 0xfffe };
      if (format.channels === 0 || format.rate === 0 || format.bits === 0) return 'not a WAV file (its fmt chunk has 0 channels, a rate of 0 Hz or 0 bits per sample)';
    } else if (startsWith(bytes, 'data', at)) {
      if (!format) return 'not a WAV file (its data chunk comes before its fmt chunk)';
      const data = bytes.subarray(body, Math.min(bytes.byteLength, body + size));
      const bytesPerSecond = format.channels * Math.ceil(format.bits / 8) * format.rate;
      const ownPcm = format.pcm && format.channels === 1 && format.rate === 24_000 && format.bits === 16;
      return { seconds: data.byteLength / bytesPerSecond, exact: true, samples: { bytes: data, ownPcm } };
    }
    at = body + size + (size % 2);
  }
  return 'not a WAV file (it has no data chunk)';
}

/** Layer III bitrates, kbps, by index: MPEG-1, then MPEG-2 and 2.5. */
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Sample rates, Hz, by index: MPEG-1, MPEG-2, MPEG-2.5. */
const RATES = { 3: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 0: [11_025, 12_000, 8_000] } as const;

/** A Layer III frame header at `at`: its length in bytes, samples and rate; `undefined` when there is none. */
function frameAt(bytes: Uint8Array, at: number): { length: number; samples: number; rate: number } | undefined {
  if (at + 4 > bytes.byteLength || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = (bytes[at + 1]! >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
  const layer = (bytes[at + 1]! >> 1) & 3; // 1: Layer III
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const rate = RATES[version as 3 | 2 | 0][rateIndex]!;
  const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]!;
  const padding = (bytes[at + 2]! >> 1) & 1;
  const samples = version === 3 ? 1152 : 576;
  return { length: Math.floor(((samples / 8) * kbps * 1000) / rate) + padding, samples, rate };
}

/** How far into an MP3 (after an ID3v2 tag) its first frame is looked for, bytes. */
const MP3_SYNC_WINDOW = 64 * 1024;

/** An MP3 stream: an optional ID3v2 tag, then Layer III frames, counted for the length (the tag frame included). */
function readMp3(bytes: Uint8Array): AudioFacts | string {
  let at = 0;
  if (startsWith(bytes, 'ID3') && bytes.byteLength >= 10) {
    at = 10 + ((bytes[6]! & 0x7f) << 21) + ((bytes[7]! & 0x7f) << 14) + ((bytes[8]! & 0x7f) << 7) + (bytes[9]! & 0x7f);
  }
  const limit = Math.min(bytes.byteLength, at + MP3_SYNC_WINDOW);
  // The first frame is one followed by another frame, or by the end: a stray 0xFF byte is not a frame.
  while (at < limit) {
    const frame = frameAt(bytes, at);
    if (frame && (at + frame.length >= bytes.byteLength || frameAt(bytes, at + frame.length))) break;
    at++;
  }
  if (at >= limit) return 'not an MP3 file (no MPEG audio frame in its first 64 KiB)';
  let samples = 0;
  let rate = 0;
  for (let frame = frameAt(bytes, at); frame; frame = frameAt(bytes, at)) {
    samples += frame.samples;
    rate = frame.rate;
    at += frame.length;
  }
  return { seconds: samples / rate, exact: true };
}
