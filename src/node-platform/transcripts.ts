/**
 * Reading the `transcripts.json` of a fixtures folder (format: `src/core/formats/transcript-schema.ts`), Node.js
 * only, at start-up: each entry names its audio by SHA-256, or by a clip inside the folder, read here (bounded, a
 * regular file inside the folder once links are resolved: `src/node-platform/read-user-file.ts`) and hashed with
 * SHA-256. The bounds are `FOLDER_LIMITS` (`src/core/formats/folder-limits.ts`).
 *
 * @module
 */
import { sha256 as sha256Of } from './node-crypto.js';
import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, sep, win32 } from 'node:path';
import { ConfigFileError, FixtureError } from '../core/base/errors.js';
import { validateConfig } from '../core/base/validate-config.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { TRANSCRIPTS_FILE, TranscriptsFileSchema, type FixtureTranscript, type TranscriptEntry } from '../core/formats/transcript-schema.js';
import { checkRecordCount } from '../core/formats/validate-fixtures.js';
import { readConfigValue } from './read-config-file.js';
import { readUserBytes } from './read-user-file.js';

/** An entry of `transcripts.json` as read: the entry as written, and the SHA-256 of its audio (a clip's, hashed). */
export interface LoadedTranscript {
  readonly entry: TranscriptEntry;
  /** 64 lower-case hex digits. */
  readonly sha256: string;
}

/** What {@link loadTranscripts} read. */
export interface LoadedTranscripts {
  /** `Fixtures.transcripts`: each transcript by its audio's SHA-256. */
  readonly transcripts: ReadonlyMap<string, FixtureTranscript>;
  /** Every entry, in file order (the recorder keeps them as written). */
  readonly entries: readonly LoadedTranscript[];
}

/** Limits of {@link loadTranscripts}; tests lower them. */
export interface TranscriptLimits {
  /** Largest clip, bytes. Default `FOLDER_LIMITS.clipBytes` (64 MiB). */
  maxClipBytes?: number;
  /** Largest total of the clips, bytes. Default `FOLDER_LIMITS.clipTotalBytes` (256 MiB). */
  maxClipTotalBytes?: number;
}

/** The transcript an entry gives, without how it names its audio. */
export function transcriptOf(entry: TranscriptEntry): FixtureTranscript {
  const { sha256: _sha256, clip: _clip, ...transcript } = entry;
  return Object.freeze(transcript);
}

/**
 * Reads `<dir>/transcripts.json`.
 *
 * @returns the transcripts, or `undefined` when the folder has no `transcripts.json`.
 * @throws {FixtureError} naming `<dir>/transcripts.json` and the path inside it when the file is not JSON, lies
 *   outside `dir` (links resolved), holds more than `FOLDER_LIMITS.transcripts` (10,000) entries or violates its
 *   schema (`transcripts[2]: expected exactly one of sha256 and clip`); naming `transcripts[i].clip` when a clip is
 *   an absolute path, is missing, is not a regular file, lies outside `dir` (links resolved), or is larger than
 *   `limits.maxClipBytes` (64 MiB), or the clips together pass `limits.maxClipTotalBytes` (256 MiB); naming
 *   `transcripts[i].sha256` (or `.clip`) when two entries are of the same audio.
 */
export function loadTranscripts(dir: string, limits: TranscriptLimits = {}): LoadedTranscripts | undefined {
  const { maxClipBytes = FOLDER_LIMITS.clipBytes, maxClipTotalBytes = FOLDER_LIMITS.clipTotalBytes } = limits;
  const file = join(dir, TRANSCRIPTS_FILE);
  if (isAbsent(file)) return undefined;
  const value = readConfigValue(file, FixtureError, { within: dir });
  checkRecordCount(file, value, 'transcripts', FOLDER_LIMITS.transcripts, 'transcripts');
  const parsed = validateConfig(file, value, TranscriptsFileSchema, FixtureError);
  const entries: LoadedTranscript[] = [];
  const transcripts = new Map<string, FixtureTranscript>();
  const seen = new Map<string, number>();
  let clipTotal = 0;
  parsed.transcripts.forEach((entry, i) => {
    const at = `transcripts[${i}]`;
    let sha256: string;
    if (entry.clip === undefined) sha256 = entry.sha256!;
    else {
      const bytes = readClip(dir, file, `${at}.clip`, entry.clip, maxClipBytes);
      clipTotal += bytes.length;
      if (clipTotal > maxClipTotalBytes) throw new FixtureError(file, `${at}.clip`, `the clips add up to more than ${maxClipTotalBytes} bytes; expected at most ${maxClipTotalBytes} bytes of clips in all`);
      sha256 = sha256Of(bytes, 'hex');
    }
    const first = seen.get(sha256);
    if (first !== undefined) {
      throw new FixtureError(file, `${at}.${entry.clip === undefined ? 'sha256' : 'clip'}`, `the same audio as transcripts[${first}] (SHA-256 ${sha256}); expected one entry per audio`);
    }
    seen.set(sha256, i);
    entries.push({ entry, sha256 });
    transcripts.set(sha256, transcriptOf(entry));
  });
  return { transcripts, entries };
}

/** Whether nothing is at `file` (a link to nothing is there: reading it names the problem). */
function isAbsent(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * The bytes of the clip `clip` of the folder `dir`, named by `file` at `location`.
 *
 * @throws {FixtureError} naming `file` and `location`: an absolute path, a path out of `dir` (`../a.wav`), or what `readUserBytes` refuses (missing,
 *   not a regular file, outside `dir` once links are resolved, larger than `maxBytes`, unreadable).
 */
function readClip(dir: string, file: string, location: string, clip: string, maxBytes: number): Buffer {
  if (isAbsolute(clip) || win32.isAbsolute(clip)) throw new FixtureError(file, location, `"${clip}" is an absolute path; expected a path inside the fixtures folder, relative to it (such as "clips/hello.wav")`);
  const path = join(dir, clip);
  const inside = relative(dir, path);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`)) throw new FixtureError(file, location, `"${clip}" leads out of the fixtures folder; expected a path inside it (such as "clips/hello.wav")`);
  try {
    return readUserBytes(path, FixtureError, { within: dir, maxBytes, expected: 'an audio file' });
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    const problem = error.problems[0]?.problem ?? error.message;
    throw new FixtureError(file, location, `${clip}: ${problem.replace(/^file not found/, 'not found; expected an audio file inside the fixtures folder')}`);
  }
}
