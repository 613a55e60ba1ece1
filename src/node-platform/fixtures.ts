/**
 * Reading the fixture files (`models.json`, `generations.json`) from a folder, a recorded folder's speech
 * recordings (`audio/index.json`, `src/node-platform/recorded-audio.ts`) and its transcripts (`transcripts.json`,
 * `src/node-platform/transcripts.ts`), Node.js only; validation is `parseFixtures` of
 * `src/core/formats/validate-fixtures.ts`. The folder format is `src/core/formats/recording-schema.ts`.
 *
 * The folder is a boundary (`src/node-platform/read-user-file.ts`): each file is read only if, links resolved, it is a
 * regular file inside the folder, within `FOLDER_LIMITS` (`src/core/formats/folder-limits.ts`).
 *
 * @module
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FixtureError } from '../core/base/errors.js';
import { fixturesOf, parseFixtures } from '../core/formats/validate-fixtures.js';
import type { Fixtures, GenerationsFile, ModelsFile } from '../core/formats/fixture-schema.js';
import { readConfigValue } from './read-config-file.js';
import { checkUserFolder } from './read-user-file.js';
import { DEFAULT_FIXTURES_DIR } from './package-files.js';
import { loadRecordings } from './recorded-audio.js';
import { loadTranscripts } from './transcripts.js';

let defaultFixtures: Fixtures | undefined;

/**
 * Reads and validates a fixtures folder: `models.json` (required; the fixtures shape, or the gateway's saved answer
 * of `GET /api/v1/models?output_modalities=all`, `{"data": [...]}`, whose speech models take the package's own
 * speech entries when they have the same id), `generations.json` (optional: absent = no records) and
 * `audio/index.json` with the files it names (optional: the recorded speech answers, `Fixtures.recordings`) and
 * `transcripts.json` with the clips it names (optional: transcripts of audio an app brings, `Fixtures.transcripts`,
 * `src/node-platform/transcripts.ts`).
 *
 * @param dir Folder holding the files. Default: the package's own `fixtures/` folder; that result is loaded once
 *   per process and the same object is returned on every later call (treat it as read-only).
 * @returns The validated fixtures (records keep unknown keys).
 * @throws {FixtureError} when `dir` is not a folder, when `models.json` is missing, when a file is unreadable, is
 *   not a regular file, leads out of `dir` through a link or is larger than 10 MiB (`src/node-platform/read-user-file.ts`),
 *   is not JSON or nests deeper than 64 levels (`src/node-platform/read-config-file.ts`), holds more records than
 *   `FOLDER_LIMITS` allows, violates its schema,
 *   or refers to something that does not exist (an alias target, a speech entry, an audio file), or when a
 *   recording's file has another length than its entry says or the recordings pass 256 MiB
 *   (`src/node-platform/recorded-audio.ts`), or when a clip of `transcripts.json` is missing, outside `dir` or too
 *   large, or two of its entries are of the same audio (`src/node-platform/transcripts.ts`) — see
 *   {@link FixtureError} for the message.
 */
export function loadFixtures(dir?: string): Fixtures {
  if (dir === undefined) {
    defaultFixtures ??= loadTrusted(DEFAULT_FIXTURES_DIR);
    return defaultFixtures;
  }
  checkUserFolder(dir, FixtureError, 'a folder holding models.json and generations.json');
  const modelsPath = join(dir, 'models.json');
  const generationsPath = join(dir, 'generations.json');
  const models = readConfigValue(modelsPath, FixtureError, { within: dir });
  const generations = isAbsent(generationsPath) ? undefined : readConfigValue(generationsPath, FixtureError, { within: dir });
  const fixtures = parseFixtures(models, generations, modelsPath, generationsPath, loadFixtures().speech, loadFixtures().transcription);
  const recordings = loadRecordings(dir);
  const transcripts = loadTranscripts(dir)?.transcripts;
  return { ...fixtures, ...(recordings ? { recordings } : {}), ...(transcripts ? { transcripts } : {}) };
}

/**
 * Whether nothing is at `file` (anything else, even an unreadable path or a link to nothing, is read so that its
 * problem is named).
 */
function isAbsent(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * The package's own fixtures, read without schema validation: they are generated, committed, and validated by
 * `test/fixtures.test.ts` (the schemas and cross-checks of `parseFixtures`). This saves ~15 ms of start-up,
 * most of it zod's first, cold validation.
 */
function loadTrusted(dir: string): Fixtures {
  const models = JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')) as ModelsFile;
  const generations = JSON.parse(readFileSync(join(dir, 'generations.json'), 'utf8')) as GenerationsFile;
  return fixturesOf(models, generations);
}

export { FixtureError };
