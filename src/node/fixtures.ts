/**
 * Reading the fixture files (`models.json`, `generations.json`) from a folder, Node.js only; validation is
 * `parseFixtures` of `src/core/config/validate-fixtures.ts`.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FixtureError, fixturesOf, parseFixtures } from '../core/config/validate-fixtures.js';
import type { Fixtures, GenerationsFile, ModelsFile } from '../core/config/fixture-schema.js';
import { readConfigValue } from './read-config-file.js';
import { checkUserFolder } from './read-user-file.js';
import { DEFAULT_FIXTURES_DIR } from './package-files.js';

let defaultFixtures: Fixtures | undefined;

/**
 * Reads and validates `models.json` and `generations.json` from `dir`.
 *
 * @param dir Folder holding both files. Default: the package's own `fixtures/` folder; that result is loaded once
 *   per process and the same object is returned on every later call (treat it as read-only).
 * @returns The validated fixtures (records keep unknown keys).
 * @throws {FixtureError} when `dir` is not a folder, when a file is missing or unreadable, is not a regular file or
 *   is larger than 10 MiB (`src/node/read-user-file.ts`), is not JSON, violates its schema, or refers to something
 *   that does not exist (an alias target, a speech entry) — see {@link FixtureError} for the message.
 */
export function loadFixtures(dir?: string): Fixtures {
  if (dir === undefined) {
    defaultFixtures ??= loadTrusted(DEFAULT_FIXTURES_DIR);
    return defaultFixtures;
  }
  checkUserFolder(dir, FixtureError, 'a folder holding models.json and generations.json');
  const modelsPath = join(dir, 'models.json');
  const generationsPath = join(dir, 'generations.json');
  const models = readConfigValue(modelsPath, FixtureError);
  const generations = readConfigValue(generationsPath, FixtureError);
  return parseFixtures(models, generations, modelsPath, generationsPath);
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
