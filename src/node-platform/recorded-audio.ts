/**
 * Reading the speech recordings of a recorded folder (`audio/index.json` and the files it names; the format is
 * `src/core/formats/recording-schema.ts`), Node.js only, at start-up: each file is checked (a plain regular file of
 * exactly the length its entry says, inside the folder once links are resolved, `src/node-platform/read-user-file.ts`) and
 * read whole, so a request answered from it reads no disk. The bounds are `FOLDER_LIMITS`
 * (`src/core/formats/folder-limits.ts`).
 *
 * @module
 */
import { closeSync, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { AUDIO_FOLDER, AUDIO_INDEX_FILE, AudioIndexSchema, isSpeechKey, type AudioIndex, type RecordedAudio, type Recordings } from '../core/formats/recording-schema.js';
import { validateConfig } from '../core/base/validate-config.js';
import { FixtureError } from '../core/base/errors.js';
import { checkRecordCount } from '../core/formats/validate-fixtures.js';
import { readConfigValue } from './read-config-file.js';
import { fileKind, OPEN_RESOLVED_FLAGS, outsideProblem, realPathInside } from './read-user-file.js';

/** The largest recorded audio file, bytes: `FOLDER_LIMITS.audioFileBytes`, 64 MiB (over an hour of 24 kHz PCM). */
export const MAX_RECORDING_BYTES = FOLDER_LIMITS.audioFileBytes;

/**
 * The most bytes of recorded audio one folder may hold in all (they are kept in memory):
 * `FOLDER_LIMITS.audioTotalBytes`, 256 MiB.
 */
export const MAX_RECORDINGS_TOTAL_BYTES = FOLDER_LIMITS.audioTotalBytes;

/** Limits of {@link loadRecordings}; tests lower them. */
export interface RecordingLimits {
  /** Largest file, bytes. Default {@link MAX_RECORDING_BYTES}. */
  maxFileBytes?: number;
  /** Largest total, bytes. Default {@link MAX_RECORDINGS_TOTAL_BYTES}. */
  maxTotalBytes?: number;
}

/**
 * Reads the recordings of the folder `dir`: `<dir>/audio/index.json` (`AudioIndexSchema`) and each file it names.
 *
 * @returns the recordings keyed by normalized request, or undefined when the folder has no `audio/index.json`.
 * @throws {FixtureError} naming `<dir>/audio/index.json` and the entry (`recordings[3].file`) when the index is
 *   not JSON, lies outside `dir` (links resolved), holds more than `FOLDER_LIMITS.recordings` (10,000) entries or
 *   violates its schema (a `content_type` that is no header value included), a key is not a normalized request
 *   (`speechKeyOf`) or appears twice, a file is missing, not a regular file, outside `dir` (links resolved), larger
 *   than `limits.maxFileBytes` (64 MiB) or of another length than its `bytes`; naming `<dir>/audio` when the files
 *   add up to more than `limits.maxTotalBytes` (256 MiB).
 */
export function loadRecordings(dir: string, limits: RecordingLimits = {}): Recordings | undefined {
  const { maxFileBytes = MAX_RECORDING_BYTES, maxTotalBytes = MAX_RECORDINGS_TOTAL_BYTES } = limits;
  const audioDir = join(dir, AUDIO_FOLDER);
  const indexPath = join(audioDir, AUDIO_INDEX_FILE);
  if (!exists(indexPath)) return undefined;
  const value = readConfigValue(indexPath, FixtureError, { within: dir });
  checkRecordCount(indexPath, value, 'recordings', FOLDER_LIMITS.recordings, 'recordings');
  const index: AudioIndex = validateConfig(indexPath, value, AudioIndexSchema, FixtureError);
  const recordings = new Map<string, RecordedAudio>();
  const seen = new Map<string, number>();
  let total = 0;
  index.recordings.forEach((recording, i) => {
    const at = `recordings[${i}]`;
    if (!isSpeechKey(recording.key)) {
      throw new FixtureError(indexPath, `${at}.key`, 'expected a normalized speech request (the JSON text speechKeyOf writes: input, model, provider_options, response_format, speed, voice)');
    }
    const first = seen.get(recording.key);
    if (first !== undefined) throw new FixtureError(indexPath, `${at}.key`, `duplicate key (also recordings[${first}])`);
    seen.set(recording.key, i);
    if (recording.file === '.' || recording.file === '..') {
      throw new FixtureError(indexPath, `${at}.file`, `expected a file name under ${AUDIO_FOLDER}/, got "${recording.file}"`);
    }
    if (recording.bytes > maxFileBytes) {
      throw new FixtureError(indexPath, `${at}.bytes`, `too large: ${recording.bytes} bytes; expected at most ${maxFileBytes} bytes`);
    }
    total += recording.bytes;
    if (total > maxTotalBytes) {
      throw new FixtureError(audioDir, '', `the recordings add up to more than ${maxTotalBytes} bytes (past ${at}); expected at most ${maxTotalBytes} bytes of audio in all`);
    }
    const bytes = readRecording(dir, indexPath, at, join(audioDir, recording.file), `${AUDIO_FOLDER}/${recording.file}`, recording.bytes);
    recordings.set(recording.key, Object.freeze({ contentType: recording.content_type, bytes }));
  });
  return recordings;
}

/**
 * Whether `file` exists (anything at the path, a link to nothing included); a path that cannot be checked counts as
 * existing, so reading it names the problem.
 */
function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * Reads the recorded file `path` (`name` in messages) of `expected` bytes, of the folder `dir`.
 *
 * @throws {FixtureError} naming `indexPath` and `<at>.file` (missing, outside `dir` once links are resolved, not a
 *   regular file, unreadable) or `<at>.bytes` (another length).
 */
function readRecording(dir: string, indexPath: string, at: string, path: string, name: string, expected: number): Uint8Array {
  let fd: number;
  try {
    const inside = realPathInside(path, dir);
    if ('outside' in inside) throw new FixtureError(indexPath, `${at}.file`, `${name} ${outsideProblem(inside.outside, dir, `a file of ${expected} bytes`)}`);
    const stats = statSync(inside.real);
    if (!stats.isFile()) throw new FixtureError(indexPath, `${at}.file`, `${name} is not a regular file (${fileKind(stats)}); expected a file of ${expected} bytes`);
    fd = openSync(inside.real, OPEN_RESOLVED_FLAGS);
  } catch (err) {
    if (err instanceof FixtureError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' || code === 'ENOTDIR' ? 'not found' : `cannot be read (${code ?? String(err)})`;
    throw new FixtureError(indexPath, `${at}.file`, `${name} ${problem}; expected a file of ${expected} bytes`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new FixtureError(indexPath, `${at}.file`, `${name} is not a regular file (${fileKind(stats)}); expected a file of ${expected} bytes`);
    if (stats.size !== expected) throw new FixtureError(indexPath, `${at}.bytes`, `expected ${expected} bytes, the length of ${name}, but it has ${stats.size}`);
    const bytes = new Uint8Array(expected);
    let read = 0;
    while (read < expected) {
      const n = readSync(fd, bytes, read, expected - read, null);
      if (n === 0) break;
      read += n;
    }
    if (read !== expected) throw new FixtureError(indexPath, `${at}.bytes`, `expected ${expected} bytes, the length of ${name}, but ${read} could be read`);
    return bytes;
  } finally {
    closeSync(fd);
  }
}
