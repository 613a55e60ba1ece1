/**
 * The layout of the MP3 streams `src/core/audio/mp3.ts` writes, computable before any audio is encoded: the frame
 * header, the exact byte length for a sample count, and the Xing "Info" frame with a LAME extension (encoder delay
 * and padding for gapless decoders) that leads the stream.
 *
 * Why all of it is known up front: at 24,000 Hz, 64 kbps, every MPEG-2 Layer III frame is exactly
 * 72,000 × 64 / 24,000 = 192 bytes (never a padding slot) and holds 576 samples, and LAME 3.100 emits
 * ⌈N / 576⌉ + 2 frames for N samples (`lame_encode_flush` in LAME's `lame.c`: 576 samples of encoder delay, then
 * 576 to 1,151 samples of end padding so the last granule decodes completely). `test/unit/mp3.test.ts` checks this
 * against the encoder for many lengths.
 *
 * Formats: the Xing/Info header and the LAME tag revision 1, as documented at
 * http://gabriel.mp3-tech.org/mp3infotag.html and written by LAME's `VbrTag.c`.
 *
 * @module
 */

import { SAMPLE_RATE } from './format.js';

/**
 * Bitrate in kbps. 64 kbps is the lowest MPEG-2 bitrate whose frame (192 bytes at 24 kHz) holds a complete
 * Xing "Info" header with its 100-byte seek table plus the LAME extension, so the tag is laid out as LAME lays
 * it out, and 192 bytes is a whole number, so every frame has the same length. Size: 8,000 bytes per second.
 */
export const MP3_BITRATE_KBPS = 64;

/** Samples per MPEG-2 Layer III frame. */
export const MP3_FRAME_SAMPLES = 576;

/** Bytes per frame at {@link MP3_BITRATE_KBPS} and 24,000 Hz: 72,000 × 64 / 24,000. */
export const MP3_FRAME_BYTES = (72_000 * MP3_BITRATE_KBPS) / SAMPLE_RATE;

/**
 * Encoder delay in samples: LAME's ENCDELAY (576), recorded in the LAME tag. Decoders add their own 529-sample
 * decoder delay; gapless decoders (mpg123, ffmpeg) drop both.
 */
export const MP3_ENCODER_DELAY = 576;

/**
 * The 4-byte header of every frame: sync, MPEG-2, Layer III, no CRC; bitrate index 8 (64 kbps), sample-rate
 * index 1 (24,000 Hz), no padding; mono, not copyrighted, "original" set (LAME's default). The tag frame uses it
 * too, as LAME's does.
 */
export const MP3_FRAME_HEADER = Uint8Array.of(0xff, 0xf3, 0x84, 0xc4);

/** The encoder string in the LAME tag (9 bytes, as LAME 3.100 writes it). */
export const MP3_ENCODER_NAME = 'LAME3.100';

/** Bitrates (kbps) by the 4-bit index of an MPEG-2/2.5 Layer III header. */
const MPEG2_L3_BITRATES = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] as const;

/**
 * Audio frames (the tag frame excluded) that LAME 3.100 emits for `totalSamples` samples: ⌈N / 576⌉ + 2.
 *
 * @param totalSamples a non-negative integer sample count.
 * @throws RangeError if `totalSamples` is not a non-negative safe integer.
 */
export function mp3AudioFrames(totalSamples: number): number {
  if (!Number.isSafeInteger(totalSamples) || totalSamples < 0) {
    throw new RangeError(`MP3 sample count must be a non-negative integer, got ${String(totalSamples)}`);
  }
  return Math.ceil(totalSamples / MP3_FRAME_SAMPLES) + 2;
}

/**
 * The exact byte length of the MP3 of `totalSamples` samples, tag frame included:
 * 192 × (⌈N / 576⌉ + 3). One second (24,000 samples) is 8,640 bytes; five minutes is 2,400,576 bytes.
 *
 * @param totalSamples a non-negative integer sample count.
 * @returns the length in bytes.
 * @throws RangeError if `totalSamples` is not a non-negative safe integer.
 */
export function mp3ByteLength(totalSamples: number): number {
  return (mp3AudioFrames(totalSamples) + 1) * MP3_FRAME_BYTES;
}

/**
 * End padding in samples that LAME adds after the last input sample: frames × 576 − 576 − N, from 576 to 1,151.
 *
 * @throws RangeError as {@link mp3AudioFrames}.
 */
export function mp3EndPadding(totalSamples: number): number {
  return mp3AudioFrames(totalSamples) * MP3_FRAME_SAMPLES - MP3_ENCODER_DELAY - totalSamples;
}

/**
 * Parses the header of an MPEG-2 (24/22.05/16 kHz) Layer III frame.
 *
 * @param bytes the stream.
 * @param at byte offset of the candidate header.
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
 * Builds the 192-byte Xing "Info" frame with a LAME extension for a stream of `totalSamples` samples: frame count,
 * byte count, a linear (CBR) seek table, encoder delay 576 and the end padding of {@link mp3EndPadding}.
 *
 * Its side information and main data are zero, so every decoder plays it as 576 samples of silence or skips it;
 * gapless decoders read the tag instead (mpg123 drops delay, padding and the frame itself: `test/unit/mp3.test.ts`).
 *
 * The LAME extension's "music CRC" (a CRC-16 of the audio frames) cannot be known before they are encoded: it is
 * written as 0. Decoders use the delay and padding without it (mpg123-decoder trims exactly: `test/unit/mp3.test.ts`);
 * only integrity checkers that recompute it would report a mismatch. The tag's own CRC (CRC-16/ARC of the frame up
 * to it, as LAME computes it) is correct.
 *
 * @param totalSamples a non-negative integer sample count.
 * @returns a new 192-byte frame.
 * @throws RangeError as {@link mp3AudioFrames}, or if the stream's byte count exceeds 2^32 − 1 (about 149 hours).
 */
export function buildInfoFrame(totalSamples: number): Uint8Array {
  const frames = mp3AudioFrames(totalSamples);
  const padding = mp3EndPadding(totalSamples);
  const totalBytes = mp3ByteLength(totalSamples);
  if (totalBytes > 0xffff_ffff) throw new RangeError(`MP3 of ${String(totalSamples)} samples is too long for its tag`);

  const frame = new Uint8Array(MP3_FRAME_BYTES);
  const view = new DataView(frame.buffer);
  frame.set(MP3_FRAME_HEADER, 0);
  let p = 4 + 9; // header, MPEG-2 mono side information (all zero)
  for (const ch of 'Info') frame[p++] = ch.charCodeAt(0);
  view.setUint32(p, 0x0f); // flags: frames, bytes, seek table, quality
  p += 4;
  view.setUint32(p, frames); // audio frames, the tag frame excluded
  p += 4;
  view.setUint32(p, totalBytes); // bytes, the tag frame included
  p += 4;
  // CBR: byte position grows linearly with time.
  for (let i = 0; i < 100; i++) frame[p + i] = Math.floor((i * 256) / 100);
  p += 100;
  view.setUint32(p, 57); // LAME quality indicator: 100 − 10 × VBR_q(4) − quality(3)
  p += 4;

  for (const ch of MP3_ENCODER_NAME) frame[p++] = ch.charCodeAt(0);
  frame[p++] = 0x01; // tag revision 0, VBR method 1 = CBR
  frame[p++] = 0; // lowpass / 100 Hz: not recorded
  p += 4 + 2 + 2; // peak amplitude, radio and audiophile replay gain: unset
  frame[p++] = 0; // encoding flags, ATH type
  frame[p++] = MP3_BITRATE_KBPS; // CBR bitrate, kbps
  frame[p++] = MP3_ENCODER_DELAY >> 4;
  frame[p++] = ((MP3_ENCODER_DELAY & 0xf) << 4) | (padding >> 8);
  frame[p++] = padding & 0xff;
  frame[p++] = 0; // misc: noise shaping, stereo mode, unwise settings, source rate ≤ 32 kHz
  frame[p++] = 0; // MP3 gain
  p += 2; // preset and surround info
  view.setUint32(p, totalBytes); // music length, the tag frame included
  p += 4;
  p += 2; // music CRC: unknown before encoding, 0 (see above)
  view.setUint16(p, crc16(frame, 0, p)); // tag CRC over everything before it
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

/**
 * CRC-16/ARC of `bytes[from..to)`, as LAME computes its tag CRC.
 *
 * @returns the CRC, 0 to 65,535.
 */
export function crc16(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) crc = (crc >>> 8) ^ (CRC16_TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number);
  return crc;
}
