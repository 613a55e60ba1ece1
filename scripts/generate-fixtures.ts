/**
 * Regenerates the committed fixtures: `fixtures/models.json` and `fixtures/generations.json`.
 *
 *   npm run fixtures
 *
 * The data is hand-written, typed from the fixture schemas, in `scripts/fixtures/data/`; the builders in
 * `scripts/fixtures/` fill in what has no known value with a seeded faker (`scripts/fixtures/faker.ts`): release
 * times of the newer speech models and every random part of the generation records (id suffixes, upstream ids,
 * latencies, ...). Real values (speech and speech-to-text models, voices, prices, the `openai/gpt-4o-mini` record,
 * record shapes) are those `docs/behaviour.md` records, with their sources; the other chat models use the gateway's public
 * listing (https://openrouter.ai/api/v1/models) when the data was written.
 *
 * The output is deterministic (no clock, no `Math.random`) and validated with the loader's schemas
 * (`src/core/formats/fixture-schema.ts`) before it is written; `test/fixtures.test.ts` checks that `generateFixtures()`
 * reproduces the committed files byte for byte. `npm run fixtures` prints every generation id.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validateConfig } from '../src/core/base/validate-config.js';
import { FixtureError } from '../src/core/base/errors.js';

import { GenerationsFileSchema, ModelsFileSchema } from '../src/core/formats/fixture-schema.js';
import { buildFixtureFiles } from './fixtures/build.js';
import type { FixtureFiles } from './fixtures/build.js';

export { REF_DATE, SEED } from './fixtures/faker.js';

/** The generated file contents. */
export interface GeneratedFixtures {
  /** Text of `fixtures/models.json` (pretty-printed JSON, trailing newline). */
  'models.json': string;
  /** Text of `fixtures/generations.json` (pretty-printed JSON, trailing newline). */
  'generations.json': string;
}

/**
 * Builds the fixture files. Pure and deterministic: the same output on every call (own seeded faker instance).
 *
 * @throws {FixtureError} naming the file and the path inside it (`fixtures/models.json: models[3].pricing.prompt:
 *   ...`) when the result does not pass the loader's schemas (a mistake in the data or the builders).
 */
export function generateFixtures(): GeneratedFixtures {
  return render(buildFixtureFiles());
}

/**
 * Validates both files with the loader's schemas and serializes them.
 *
 * @throws {FixtureError} as {@link generateFixtures} describes.
 */
function render(files: FixtureFiles): GeneratedFixtures {
  validateConfig('fixtures/models.json', files['models.json'], ModelsFileSchema, FixtureError);
  validateConfig('fixtures/generations.json', files['generations.json'], GenerationsFileSchema, FixtureError);
  return {
    'models.json': `${JSON.stringify(files['models.json'], null, 2)}\n`,
    'generations.json': `${JSON.stringify(files['generations.json'], null, 2)}\n`,
  };
}

/** The repository's `fixtures/` folder. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

function main(): void {
  const files = buildFixtureFiles();
  const text = render(files);
  mkdirSync(FIXTURES_DIR, { recursive: true });
  for (const [name, content] of Object.entries(text)) writeFileSync(join(FIXTURES_DIR, name), content);
  const { models } = files['models.json'];
  const { generations } = files['generations.json'];
  console.log(`wrote ${join(FIXTURES_DIR, 'models.json')} (${models.length} models)`);
  console.log(`wrote ${join(FIXTURES_DIR, 'generations.json')} (${generations.length} generations):`);
  for (const g of generations) console.log(`  ${g.id}  ${g.api_type}  ${g.model}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main();
}
