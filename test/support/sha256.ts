/**
 * The SHA-256 of some bytes as lowercase hex: how the tests compare audio and bodies byte for byte (and how
 * `test/fixtures/mp3-hashes.json` pins the MP3 encoder's output).
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** The SHA-256 digest of `bytes`, 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
