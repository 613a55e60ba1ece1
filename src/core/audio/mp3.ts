/**
 * MP3 encoding for OpenRouter's `response_format: "mp3"` (served as
 * `Content-Type: audio/mpeg`), using lamejs (a pure-JS port of LAME 3.98).
 *
 * Output: MPEG-2 Layer III, 24,000 Hz, mono, constant bitrate
 * {@link MP3_BITRATE_KBPS} kbps, preceded by a LAME-style "Info" frame that
 * records the exact encoder delay and padding. Gapless-aware decoders
 * (mpg123, as the tests check; ffmpeg reads the same tag) return exactly the original sample
 * count; others see 576 extra samples (24 ms) of silence up front plus the
 * usual ~1,100–1,700 samples of encoder delay and padding.
 *
 * @module
 */

import { Mp3Encoder } from '@breezystack/lamejs';
import { SAMPLE_RATE } from './format.js';

/**
 * Bitrate in kbps. 64 kbps is the lowest MPEG-2 bitrate whose frame (192
 * bytes at 24 kHz) holds a complete standard Xing "Info" + LAME tag, so the
 * gapless tag is laid out exactly as LAME writes it and the whole stream is
 * strictly CBR. Speed does not argue for less: with lamejs, 48 and 64 kbps
 * encode equally fast, while 32 kbps is 3–10× slower (its quantization loop
 * iterates more). Size is 8 kB per second of audio, clean for pure tones.
 */
const MP3_BITRATE_KBPS = 64;

/** Samples handed to lamejs per `encodeBuffer` call (one MPEG-1 frame's worth). */
const MP3_BLOCK_SAMPLES = 1152;

/** Samples per MPEG-2 Layer III frame. */
const MP3_FRAME_SAMPLES = 576;

/**
 * Encoder delay recorded in the Info tag, in samples: LAME's ENCDELAY.
 * Decoders add their own 529-sample decoder delay on top; measured with
 * mpg123, lamejs output starts 576 + 529 = 1,105 samples late.
 */
export const MP3_ENCODER_DELAY = 576;

/** Options for {@link encodeMp3}. */
export interface Mp3Options {
  /**
   * Constant bitrate in kbps, one of the MPEG-2 Layer III rates
   * (8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160).
   * Default {@link MP3_BITRATE_KBPS}.
   */
  bitrateKbps?: number;
}

const MPEG2_L3_BITRATES = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] as const;

/**
 * Encodes 24 kHz mono samples as a CBR MP3 byte stream.
 *
 * The samples are fed to lamejs in blocks of {@link MP3_BLOCK_SAMPLES} and the
 * encoder is flushed at the end; the result is one contiguous buffer: the
 * Info/LAME tag frame followed by the audio frames (no ID3 tag). Decoded with
 * a gapless decoder it has exactly `samples.length` samples.
 *
 * Cost (2-core box, Node 20): lamejs runs at ≈ 100× real time once the JIT
 * is warm (≈ 10 ms per second of audio) and ≈ 20–30× for the first seconds
 * encoded in a process. It is synchronous: long inputs block the event loop
 * (4,096 characters ≈ 4.5 min of audio ≈ 2.7 s of encoding).
 *
 * @param samples - mono samples at 24,000 Hz ({@link SAMPLE_RATE}).
 * @param options - optional bitrate override.
 * @returns the MP3 bytes.
 * @throws RangeError if `options.bitrateKbps` is not an MPEG-2 Layer III bitrate.
 */
export function encodeMp3(samples: Int16Array, options: Mp3Options = {}): Uint8Array {
  const kbps = options.bitrateKbps ?? MP3_BITRATE_KBPS;
  if (!MPEG2_L3_BITRATES.includes(kbps as (typeof MPEG2_L3_BITRATES)[number]) || kbps === 0) {
    throw new RangeError(`unsupported MP3 bitrate ${String(kbps)} kbps for ${SAMPLE_RATE} Hz`);
  }
  const encoder = new Mp3Encoder(1, SAMPLE_RATE, kbps);
  const chunks: Uint8Array[] = [];
  let audioBytes = 0;
  const push = (chunk: ArrayBufferView): void => {
    if (chunk.byteLength === 0) return;
    // lamejs returns Int8Array at run time (its typings say Uint8Array).
    chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    audioBytes += chunk.byteLength;
  };
  for (let offset = 0; offset < samples.length; offset += MP3_BLOCK_SAMPLES) {
    push(encoder.encodeBuffer(samples.subarray(offset, Math.min(samples.length, offset + MP3_BLOCK_SAMPLES))));
  }
  push(encoder.flush());

  const audio = concat(chunks, audioBytes);
  const tag = buildInfoFrame(audio, samples.length, kbps);
  if (!tag) return audio;
  const out = new Uint8Array(tag.length + audio.length);
  out.set(tag, 0);
  out.set(audio, tag.length);
  return out;
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Parses the header of an MPEG-2 (24/22.05/16 kHz) Layer III frame.
 *
 * @returns frame length in bytes, or 0 if `bytes[at..]` is not such a header.
 */
export function mpeg2Layer3FrameLength(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length) return 0;
  const b1 = bytes[at + 1] as number;
  const b2 = bytes[at + 2] as number;
  // Sync (11 bits), version 10 (MPEG-2), layer 01 (III).
  if (bytes[at] !== 0xff || (b1 & 0xfe) !== 0xf2) return 0;
  const bitrate = MPEG2_L3_BITRATES[b2 >> 4];
  const rate = [22050, 24000, 16000][(b2 >> 2) & 3];
  if (!bitrate || !rate) return 0;
  return Math.floor((72000 * bitrate) / rate) + ((b2 >> 1) & 1);
}

/**
 * Builds the Xing "Info" frame with a LAME extension (encoder delay and
 * padding for gapless playback), matching LAME's own layout when it fits.
 * Returns undefined when `audio` does not parse as MPEG-2 Layer III frames
 * or the padding does not fit the tag's 12-bit field.
 */
function buildInfoFrame(audio: Uint8Array, sampleCount: number, kbps: number): Uint8Array | undefined {
  let frames = 0;
  for (let at = 0; at < audio.length; frames++) {
    const length = mpeg2Layer3FrameLength(audio, at);
    if (length === 0) return undefined;
    at += length;
  }
  const padding = frames * MP3_FRAME_SAMPLES - MP3_ENCODER_DELAY - sampleCount;
  if (frames === 0 || padding < 0 || padding > 0xfff) return undefined;

  // Same header as the first audio frame, without CRC and padding slot.
  const b1 = (audio[1] as number) | 0x01;
  const b2 = (audio[2] as number) & 0xfd;
  const b3 = audio[3] as number;
  const header = Uint8Array.of(0xff, b1, b2, b3);
  const frameLength = mpeg2Layer3FrameLength(header, 0);
  const mono = (b3 >> 6) === 3;
  const sideInfo = mono ? 9 : 17; // MPEG-2 side info length
  const lameExtension = 36;
  const withToc = 4 + sideInfo + 4 + 4 + 4 + 4 + 100 + 4 + lameExtension <= frameLength;
  const minimal = 4 + sideInfo + 4 + 4 + 4 + 4 + 4 + lameExtension;
  if (minimal > frameLength) return undefined;

  const frame = new Uint8Array(frameLength);
  const view = new DataView(frame.buffer);
  frame.set(header, 0);
  let p = 4 + sideInfo;
  for (const ch of 'Info') frame[p++] = ch.charCodeAt(0);
  const flags = withToc ? 0x0f : 0x0b; // frames | bytes | (toc) | quality
  view.setUint32(p, flags);
  p += 4;
  view.setUint32(p, frames);
  p += 4;
  const totalBytes = frameLength + audio.length;
  view.setUint32(p, totalBytes);
  p += 4;
  if (withToc) {
    // CBR: byte position grows linearly with time.
    for (let i = 0; i < 100; i++) frame[p + i] = Math.floor((i * 256) / 100);
    p += 100;
  }
  view.setUint32(p, 57); // LAME quality indicator: 100 - 10 * VBR_q(4) - quality(3)
  p += 4;

  const lameStart = p;
  for (const ch of 'LAME3.98r') frame[p++] = ch.charCodeAt(0);
  frame[p++] = 0x01; // tag revision 0, VBR method 1 = CBR
  frame[p++] = 0; // lowpass / 100 Hz: unknown
  p += 4 + 2 + 2; // peak amplitude, radio and audiophile replay gain: unset
  frame[p++] = 0; // encoding flags, ATH type
  frame[p++] = Math.min(255, kbps); // CBR bitrate, kbps
  frame[p++] = MP3_ENCODER_DELAY >> 4;
  frame[p++] = ((MP3_ENCODER_DELAY & 0xf) << 4) | (padding >> 8);
  frame[p++] = padding & 0xff;
  frame[p++] = 0; // misc: noise shaping, stereo mode, unwise settings, source rate ≤ 32 kHz
  frame[p++] = 0; // MP3 gain
  p += 2; // preset and surround info
  view.setUint32(p, totalBytes); // music length, including this frame
  p += 4;
  view.setUint16(p, crc16(audio, 0, audio.length)); // music CRC
  p += 2;
  view.setUint16(p, crc16(frame, 0, p)); // tag CRC over everything before it
  p += 2;
  if (p - lameStart !== lameExtension) return undefined;
  return frame;
}

const CRC16_TABLE = buildCrc16Table();

/** CRC-16/ARC (poly 0x8005 reflected, init 0): the CRC LAME uses in its tag. */
function buildCrc16Table(): Uint16Array {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[n] = c;
  }
  return table;
}

function crc16(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) crc = (crc >>> 8) ^ (CRC16_TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number);
  return crc;
}
