/**
 * Raw PCM encoding, as OpenRouter's `response_format: "pcm"` delivers it:
 * 16-bit signed little-endian mono samples (24 kHz), no header, served with
 * `Content-Type: audio/pcm;rate=24000;channels=1`.
 *
 * @module
 */

/** True when the host stores multi-byte integers little-endian (x86, ARM). */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Serializes samples as 16-bit signed little-endian bytes, no header.
 *
 * On little-endian hosts this is a zero-copy view over `samples.buffer`
 * (so the result aliases the samples: mutate neither); on big-endian hosts
 * the bytes are swapped into a new buffer.
 *
 * @param samples mono samples (any rate; the mock uses 24 kHz).
 * @returns `2 × samples.length` bytes. Never throws.
 */
export function encodePcm(samples: Int16Array): Uint8Array {
  if (HOST_IS_LITTLE_ENDIAN) return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  return encodePcmCopy(samples);
}

/**
 * Endianness-independent version of {@link encodePcm}: always copies, writing
 * each sample little-endian through a DataView. Used on big-endian hosts and
 * exported so that path can be tested anywhere.
 *
 * @param samples mono samples.
 * @returns a new buffer of `2 × samples.length` bytes.
 */
export function encodePcmCopy(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] as number, true);
  return bytes;
}
