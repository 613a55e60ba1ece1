/**
 * The one reader of the files and folders that options and flags name (`keys`/`--keys`, `scenario`/`--scenario`,
 * `scenarios`/`--scenarios`, `fixtures`/`--fixtures`), Node.js only. It never hangs and never reads without bound:
 * only regular files are opened for reading (a FIFO, a device, a socket or a folder is refused before any read), at
 * most {@link MAX_USER_FILE_BYTES} bytes are read, and reading stops with an error once
 * {@link USER_FILE_READ_TIME_LIMIT_MS} has passed. A simulator choice, stated in docs/options.md ("Command line").
 *
 * A folder is a boundary: a file read as part of a folder (`--fixtures`, `--scenarios`; `UserFileLimits.within`)
 * is read only when, with every link on its path resolved, it lies inside the folder (its real path is under the
 * folder's real path). A file whose path leads out through a link (the file itself, or a folder on the way such as
 * `audio/`) is refused without its target being opened; a file inside is opened by its real path, a link in its
 * last part not followed.
 *
 * Reads are synchronous (`createGateway` is), so the time limit is checked between chunks, not enforced by a
 * timer: the file is checked with `stat` before it is opened and again with `fstat` on the open descriptor (opened
 * `O_NONBLOCK`, so even a FIFO swapped in between cannot block the open), and a read of a regular file on a local
 * disk always returns. A file that only ever trickles (a slow network mount) is stopped at the next chunk past the
 * limit; one read that itself stalls (a hung network mount) cannot be interrupted synchronously.
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { ConfigFileError, type ConfigErrorClass } from '../core/base/errors.js';

/**
 * The largest file read, in bytes: `FOLDER_LIMITS.fileBytes`, 10 MiB. A larger file is refused, whatever its `stat`
 * size says.
 */
export const MAX_USER_FILE_BYTES = FOLDER_LIMITS.fileBytes;

/** How long reading one file may take, in ms; past it the read stops with an error. */
export const USER_FILE_READ_TIME_LIMIT_MS = 5_000;

/** Bytes asked for by each read. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Opened read-only and non-blocking (a FIFO or a device opened by accident does not block the open), and not as a
 * controlling terminal. `O_NONBLOCK` and `O_NOCTTY` are absent on Windows, where they are not needed.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** {@link OPEN_FLAGS}, and a link in the last part of the path refused: how a file resolved inside its folder is opened. */
export const OPEN_RESOLVED_FLAGS = OPEN_FLAGS | (constants.O_NOFOLLOW ?? 0);

/**
 * What a path is, as an indefinite noun phrase for messages: `a regular file`, `a folder`, `a FIFO` (named pipe),
 * `a character device`, `a block device`, `a socket`, `a symbolic link`, or `not a file` for anything else.
 */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a file';
}

/** The problem for a failed `stat`, `open` or `read` of a file (`what` is `file` or `folder`). */
function accessProblem(err: unknown, what: 'file' | 'folder'): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${what} not found`;
  if (code === 'ENOTDIR') return `${what} not found (a part of the path is not a folder)`;
  if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return `cannot read ${what}: it has no data ready (${code}); expected a regular file`;
  return `cannot read ${what} (${code ?? String(err)})`;
}

/** The size problem of a file of `bytes` bytes (`more than` them, when `moreThan`), for a limit of `maxBytes`. */
function tooLarge(bytes: number, moreThan: boolean, maxBytes: number): string {
  const limit = maxBytes === MAX_USER_FILE_BYTES ? `10 MiB (${maxBytes} bytes)` : `${maxBytes} bytes`;
  return `too large: ${moreThan ? 'more than ' : ''}${bytes} bytes; expected at most ${limit}`;
}

/** Limits of {@link readUserFile}; tests lower them, options and flags keep the defaults. */
export interface UserFileLimits {
  /** What the option expects there, for the message when the path is not a regular file. Default `a JSON or YAML file`. */
  expected?: string;
  /** The most bytes read. Default {@link MAX_USER_FILE_BYTES}. */
  maxBytes?: number;
  /** The most ms reading may take, checked after each chunk. Default {@link USER_FILE_READ_TIME_LIMIT_MS}. */
  timeLimitMs?: number;
  /**
   * The folder the file is part of (`--fixtures`, `--scenarios`): the file is read only if its real path (links
   * resolved) is inside the folder's real path. Default: none (a file an option names itself may be a link anywhere).
   */
  within?: string;
}

/**
 * Where `path` leads, every link on it resolved: `{ real }` when that lies inside the real path of `folder`, else
 * `{ outside }` (the real path it leads to, which is not opened).
 *
 * @throws the system error of resolving `folder` or `path` (`ENOENT` for a missing file or a link to nothing).
 */
export function realPathInside(path: string, folder: string): { real: string } | { outside: string } {
  const root = realpathSync(folder);
  const real = realpathSync(path);
  const inside = relative(root, real);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return { outside: real };
  return { real };
}

/** The problem of a file of `folder` that leads to `real`, outside it; `expected` is what should be there (`a file`). */
export function outsideProblem(real: string, folder: string, expected = 'a file'): string {
  return `resolves (through a link) to ${real}, outside the folder ${folder}; expected ${expected} inside it`;
}

/**
 * Reads a file that an option names, as UTF-8 text (no BOM handling, as `readFileSync(file, 'utf8')`).
 *
 * @param file the path, as the option gave it; errors name it so.
 * @param ErrorClass the error class of the option (`KeysError`, `ScenarioError`, `FixtureError`).
 * @returns the file's text, at most `limits.maxBytes` (10 MiB) bytes of it.
 * @throws {ConfigFileError} (of class `ErrorClass`, naming `file`, location `''`) when the file is missing or
 *   unreadable, lies outside `limits.within` once its links are resolved (`resolves (through a link) to /etc/passwd,
 *   outside the folder fixtures; expected a file inside it`), is not a regular file (`not a regular file (a FIFO);
 *   expected a JSON or YAML file`), is larger than `limits.maxBytes` by `fstat` or by what it holds (`too large: 11534336 bytes; expected at most 10 MiB
 *   (10485760 bytes)`), or takes `limits.timeLimitMs` (5 s) or longer to read.
 */
export function readUserFile(file: string, ErrorClass: ConfigErrorClass, limits: UserFileLimits = {}): string {
  return readUserBytes(file, ErrorClass, limits).toString('utf8');
}

/**
 * Reads a file that an option names (or that a file of a folder names, such as a clip of `transcripts.json`), as
 * bytes, with every check of {@link readUserFile} (whose errors it throws, the same way).
 *
 * @returns the file's bytes, at most `limits.maxBytes` (10 MiB) of them.
 */
export function readUserBytes(file: string, ErrorClass: ConfigErrorClass, limits: UserFileLimits = {}): Buffer {
  const { expected = 'a JSON or YAML file', maxBytes = MAX_USER_FILE_BYTES, timeLimitMs = USER_FILE_READ_TIME_LIMIT_MS, within } = limits;
  const deadline = performance.now() + timeLimitMs;
  let path = file;
  if (within !== undefined) {
    let inside: ReturnType<typeof realPathInside>;
    try {
      inside = realPathInside(file, within);
    } catch (err) {
      throw new ErrorClass(file, '', accessProblem(err, 'file'));
    }
    if ('outside' in inside) throw new ErrorClass(file, '', outsideProblem(inside.outside, within));
    path = inside.real;
  }
  // stat first: a FIFO or a device is refused without being opened at all.
  checkRegular(file, statOrThrow(path, file, ErrorClass), ErrorClass, expected);
  let fd: number;
  try {
    fd = openSync(path, within === undefined ? OPEN_FLAGS : OPEN_RESOLVED_FLAGS);
  } catch (err) {
    throw new ErrorClass(file, '', accessProblem(err, 'file'));
  }
  try {
    // fstat on the descriptor: what is read is what was checked, even if the path was replaced since.
    const stats = fstatSync(fd);
    checkRegular(file, stats, ErrorClass, expected);
    if (stats.size > maxBytes) throw new ErrorClass(file, '', tooLarge(stats.size, false, maxBytes));
    const bytes = readBounded(fd, maxBytes, deadline);
    if (bytes === TOO_LARGE) throw new ErrorClass(file, '', tooLarge(maxBytes, true, maxBytes));
    if (bytes === TOO_SLOW) throw new ErrorClass(file, '', `reading took ${timeLimitMs / 1000} s or longer; expected a regular file on a local disk`);
    return bytes;
  } catch (err) {
    if (err instanceof ConfigFileError) throw err;
    throw new ErrorClass(file, '', accessProblem(err, 'file'));
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks that `dir`, which an option names, is a folder (`readdirSync` of a file fails with a bare `ENOTDIR`).
 *
 * @param expected what the option expects there (`a folder of JSON or YAML scenario files`).
 * @throws {ConfigFileError} (of class `ErrorClass`, naming `dir`) when it is missing, unreadable or not a folder.
 */
export function checkUserFolder(dir: string, ErrorClass: ConfigErrorClass, expected: string): void {
  let stats: Stats;
  try {
    stats = statSync(dir);
  } catch (err) {
    throw new ErrorClass(dir, '', accessProblem(err, 'folder'));
  }
  if (!stats.isDirectory()) throw new ErrorClass(dir, '', `not a folder (${fileKind(stats)}); expected ${expected}`);
}

/** `stat` of `path`, or its error as `ErrorClass` naming `file`. */
function statOrThrow(path: string, file: string, ErrorClass: ConfigErrorClass): Stats {
  try {
    return statSync(path);
  } catch (err) {
    throw new ErrorClass(file, '', accessProblem(err, 'file'));
  }
}

/** Refuses anything but a regular file, naming what it is and what was `expected`. */
function checkRegular(file: string, stats: Stats, ErrorClass: ConfigErrorClass, expected: string): void {
  if (!stats.isFile()) throw new ErrorClass(file, '', `not a regular file (${fileKind(stats)}); expected ${expected}`);
}

/** {@link readBounded}'s answer for a file holding more than its limit. */
const TOO_LARGE = Symbol('too large');
/** {@link readBounded}'s answer for a read that reached its deadline. */
const TOO_SLOW = Symbol('too slow');

/**
 * Reads `fd` to its end in chunks: its bytes, or {@link TOO_LARGE} past `maxBytes` (files of `/proc` report size 0
 * and hold more), or {@link TOO_SLOW} once `deadline` (a `performance.now()` time) has come.
 *
 * @throws the system error of a failed read.
 */
function readBounded(fd: number, maxBytes: number, deadline: number): Buffer | typeof TOO_LARGE | typeof TOO_SLOW {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    // One byte past the limit tells a file of exactly the limit from a larger one.
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
    if (total > maxBytes) return TOO_LARGE;
    if (performance.now() >= deadline) return TOO_SLOW;
  }
  return Buffer.concat(chunks, total);
}
