/**
 * Validating fixtures (the contents of `models.json` and `generations.json`): their schemas
 * (`src/core/config/fixture-schema.ts`) and the cross-references a schema cannot express (alias targets, speech
 * entries, providers). Pure: reading the files is Node.js-only (`src/node/fixtures.ts`); browsers get the
 * package's fixtures bundled as data (`src/browser/platform.ts`).
 *
 * @module
 */
import { ConfigFileError, validateConfig } from './validate-config.js';
import { formatPath } from './zod-issues.js';
import { GenerationsFileSchema, ModelsFileSchema } from './fixture-schema.js';
import type { Fixtures, GenerationsFile, ModelsFile, SpeechModelInfo } from './fixture-schema.js';
import { isSavedCatalog, savedCatalogToModelsFile } from '../catalog/saved-catalog.js';

/**
 * A fixture file is missing, is not valid JSON or does not match its schema. The message is one line:
 * `<file>: <path inside it>: <what was expected>` (see {@link ConfigFileError}).
 */
export class FixtureError extends ConfigFileError {
  override name = 'FixtureError';
}

/**
 * Validates the contents of both fixture files, already parsed from JSON.
 *
 * @param models the value of `models.json`: the fixtures shape (`{models, aliases, speech, providers?}`) or the
 *   saved answer of `GET /api/v1/models` (`{"data": [...]}`, see {@link parseModelsFile}); `modelsName` names it in
 *   errors (a path, or `models.json`).
 * @param generations the value of `generations.json`, or undefined when the folder has none (no records);
 *   `generationsName` names it in errors.
 * @param known speech entries a saved catalog's speech models take when they have the same id (the package's own).
 * @returns the validated fixtures (records keep unknown keys).
 * @throws {FixtureError} naming the file and the path inside it, when a value violates its schema or refers to
 *   something that does not exist (an alias target, a speech entry, a provider's model).
 */
export function parseFixtures(
  models: unknown,
  generations: unknown,
  modelsName = 'models.json',
  generationsName = 'generations.json',
  known?: Readonly<Record<string, SpeechModelInfo>>,
): Fixtures {
  const modelsFile = parseModelsFile(models, modelsName, known);
  const generationsFile: GenerationsFile =
    generations === undefined ? { generations: [] } : validateConfig(generationsName, generations, GenerationsFileSchema, FixtureError);
  checkGenerations(generationsName, generationsFile);
  return fixturesOf(modelsFile, generationsFile);
}

/**
 * Validates the value of a `models.json`, in either of its shapes:
 *
 * - the fixtures shape, `{models, aliases, speech, providers?}` (`ModelsFileSchema`), with its cross-references
 *   checked;
 * - the saved answer of `GET /api/v1/models?output_modalities=all` (an object with `data` and no `models`; other
 *   keys ignored), read by `savedCatalogToModelsFile` of `src/core/catalog/saved-catalog.ts`: records checked as
 *   `data[i]`, speech entries derived (preferring `known`'s), no aliases, no providers.
 *
 * @throws {FixtureError} naming `file` and the path inside it (`data[12].pricing.prompt`, `models[3].id`).
 */
export function parseModelsFile(value: unknown, file = 'models.json', known?: Readonly<Record<string, SpeechModelInfo>>): ModelsFile {
  if (isSavedCatalog(value)) {
    const saved = savedCatalogToModelsFile(file, value, FixtureError, known);
    checkModels(file, saved, 'data');
    return saved;
  }
  const modelsFile: ModelsFile = validateConfig(file, value, ModelsFileSchema, FixtureError);
  checkModels(file, modelsFile, 'models');
  return modelsFile;
}

/** The fixtures held by both files' contents, taken as they are (the package's own, validated by its tests). */
export function fixturesOf(models: ModelsFile, generations: GenerationsFile): Fixtures {
  return { models: models.models, aliases: models.aliases, speech: models.speech, providers: models.providers, generations: generations.generations };
}

/** Cross-references inside models.json that a schema cannot express; `list` names the list of records in errors. */
function checkModels(file: string, data: ModelsFile, list: 'models' | 'data'): void {
  const ids = new Map<string, number>();
  data.models.forEach((model, i) => {
    if (ids.has(model.id)) {
      throw new FixtureError(file, `${list}[${i}].id`, `duplicate model id "${model.id}" (also ${list}[${ids.get(model.id)}])`);
    }
    ids.set(model.id, i);
    const speaks = model.architecture.output_modalities.includes('speech');
    if (speaks && (model.supported_voices === null || model.supported_voices.length === 0)) {
      throw new FixtureError(file, `${list}[${i}].supported_voices`, 'expected a non-empty list of voices for a speech model');
    }
    if (speaks && data.speech[model.id] === undefined) {
      throw new FixtureError(file, formatPath(['speech', model.id]), `missing entry for speech model "${model.id}"`);
    }
  });
  const aliases = new Set<string>();
  data.aliases.forEach((alias, i) => {
    if (ids.has(alias.alias)) {
      throw new FixtureError(file, `aliases[${i}].alias`, `"${alias.alias}" is already a model id`);
    }
    if (aliases.has(alias.alias)) {
      throw new FixtureError(file, `aliases[${i}].alias`, `duplicate alias "${alias.alias}"`);
    }
    aliases.add(alias.alias);
    if (!ids.has(alias.target)) {
      throw new FixtureError(file, `aliases[${i}].target`, `expected the id of a model in ${list}, got "${alias.target}"`);
    }
  });
  for (const [id, providers] of Object.entries(data.providers ?? {})) {
    if (!ids.has(id)) {
      throw new FixtureError(file, formatPath(['providers', id]), `expected the id of a model in ${list}, got "${id}"`);
    }
    const speechProvider = data.speech[id]?.provider_name;
    if (speechProvider !== undefined && !providers.some((p) => p.provider_name === speechProvider)) {
      throw new FixtureError(file, formatPath(['providers', id]), `expected the speech provider "${speechProvider}" (speech.${id}.provider_name) among the providers`);
    }
  }
  for (const id of Object.keys(data.speech)) {
    const index = ids.get(id);
    if (index === undefined) {
      throw new FixtureError(file, formatPath(['speech', id]), `expected the id of a model in ${list}, got "${id}"`);
    }
    const model = data.models[index];
    if (model !== undefined && !model.architecture.output_modalities.includes('speech')) {
      throw new FixtureError(file, formatPath(['speech', id]), `model "${id}" does not list "speech" in architecture.output_modalities`);
    }
  }
}

function checkGenerations(file: string, data: GenerationsFile): void {
  const ids = new Map<string, number>();
  data.generations.forEach((generation, i) => {
    const seen = ids.get(generation.id);
    if (seen !== undefined) {
      throw new FixtureError(file, `generations[${i}].id`, `duplicate generation id "${generation.id}" (also generations[${seen}])`);
    }
    ids.set(generation.id, i);
  });
}
