/**
 * Validating fixtures (the contents of `models.json` and `generations.json`): their schemas
 * (`src/core/formats/fixture-schema.ts`) and the cross-references a schema cannot express (alias targets, speech
 * and transcription entries, providers). Pure: reading the files is Node.js-only (`src/node-platform/fixtures.ts`); browsers get the
 * package's fixtures bundled as data (`src/browser/platform.ts`).
 *
 * @module
 */
import { FixtureError } from '../base/errors.js';
import { validateConfig } from '../base/validate-config.js';
import { formatPath } from '../base/zod-issues.js';
import { FOLDER_LIMITS } from './folder-limits.js';
import { entryOf, GenerationsFileSchema, ModelsFileSchema } from './fixture-schema.js';
import type { Fixtures, GenerationsFile, ModelsFile, SpeechModelInfo, TranscriptionModelInfo } from './fixture-schema.js';
import { isSavedCatalog, savedCatalogToModelsFile } from './saved-catalog.js';

/**
 * The one name no model id, alias or entry may have: an object's key `__proto__` is its prototype in JavaScript, so
 * zod drops such an entry and a lookup by it finds `Object.prototype`. Every other name (`toString`, `constructor`)
 * is a plain name (`entryOf` of `fixture-schema.ts`).
 */
const RESERVED_NAME = '__proto__';

/** The problem of a name that is {@link RESERVED_NAME}. */
const RESERVED_PROBLEM = `"${RESERVED_NAME}" is not taken as a name (JavaScript objects reserve it); expected another model id`;

/**
 * Refuses a list of records (`value[key]`) longer than `max`, before its records are validated (zod makes an issue
 * for each bad record, so a file of millions of tiny records would take gigabytes to report).
 *
 * @param what the records, plural, for the message (`model records`).
 * @throws {FixtureError} naming `file` and `key`: `30000 model records; expected at most 20000`.
 */
export function checkRecordCount(file: string, value: unknown, key: string, max: number, what: string): void {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return;
  const list = (value as Record<string, unknown>)[key];
  if (Array.isArray(list) && list.length > max) throw new FixtureError(file, key, `${list.length} ${what}; expected at most ${max}`);
}

/**
 * Refuses {@link RESERVED_NAME} as a model id, alias or alias target (`models[i].id`, `data[i].id`,
 * `aliases[i].alias`), or as the name of a `speech`, `transcription` or `providers` entry, in the value of a `models.json` before it
 * is validated (validation would drop such an entry without a word).
 */
function refuseReservedNames(file: string, value: unknown, list: 'models' | 'data'): void {
  if (value === null || typeof value !== 'object') return;
  const fields = value as Record<string, unknown>;
  const own = (key: string) => (Object.hasOwn(fields, key) ? fields[key] : undefined);
  const records = own(list);
  if (Array.isArray(records)) {
    records.forEach((record: unknown, i) => {
      if (record !== null && typeof record === 'object' && (record as { id?: unknown }).id === RESERVED_NAME) throw new FixtureError(file, `${list}[${i}].id`, RESERVED_PROBLEM);
    });
  }
  const aliases = own('aliases');
  if (Array.isArray(aliases)) {
    aliases.forEach((alias: unknown, i) => {
      if (alias === null || typeof alias !== 'object') return;
      for (const field of ['alias', 'target'] as const) {
        if ((alias as Record<string, unknown>)[field] === RESERVED_NAME) throw new FixtureError(file, `aliases[${i}].${field}`, RESERVED_PROBLEM);
      }
    });
  }
  for (const map of ['speech', 'transcription', 'providers'] as const) {
    const entries = own(map);
    if (entries !== null && typeof entries === 'object' && Object.hasOwn(entries, RESERVED_NAME)) throw new FixtureError(file, formatPath([map, RESERVED_NAME]), RESERVED_PROBLEM);
  }
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
 * @param knownTranscription transcription entries a saved catalog's speech-to-text models take likewise.
 * @returns the validated fixtures (records keep unknown keys).
 * @throws {FixtureError} naming the file and the path inside it, when a value violates its schema, refers to
 *   something that does not exist (an alias target, a speech or transcription entry, a provider's model), lacks the
 *   speech or transcription entry of a model that outputs speech or transcription, holds more records than
 *   `FOLDER_LIMITS` allows (`models`, `generations`), or names a model `__proto__`.
 */
export function parseFixtures(
  models: unknown,
  generations: unknown,
  modelsName = 'models.json',
  generationsName = 'generations.json',
  known?: Readonly<Record<string, SpeechModelInfo>>,
  knownTranscription?: Readonly<Record<string, TranscriptionModelInfo>>,
): Fixtures {
  const modelsFile = parseModelsFile(models, modelsName, known, knownTranscription);
  checkRecordCount(generationsName, generations, 'generations', FOLDER_LIMITS.generations, 'generation records');
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
 *   keys ignored), read by `savedCatalogToModelsFile` of `src/core/formats/saved-catalog.ts`: records checked as
 *   `data[i]`, speech and transcription entries derived (preferring `known`'s and `knownTranscription`'s), no
 *   aliases, no providers.
 *
 * Either holds at most `FOLDER_LIMITS.models` (20,000) records, and no model, alias or entry named `__proto__`.
 *
 * @throws {FixtureError} naming `file` and the path inside it (`data[12].pricing.prompt`, `models[3].id`).
 */
export function parseModelsFile(
  value: unknown,
  file = 'models.json',
  known?: Readonly<Record<string, SpeechModelInfo>>,
  knownTranscription?: Readonly<Record<string, TranscriptionModelInfo>>,
): ModelsFile {
  const list = isSavedCatalog(value) ? 'data' : 'models';
  checkRecordCount(file, value, list, FOLDER_LIMITS.models, 'model records');
  refuseReservedNames(file, value, list);
  if (isSavedCatalog(value)) {
    const saved = savedCatalogToModelsFile(file, value, FixtureError, known, knownTranscription);
    checkModels(file, saved, 'data');
    return saved;
  }
  const modelsFile: ModelsFile = validateConfig(file, value, ModelsFileSchema, FixtureError);
  checkModels(file, modelsFile, 'models');
  return modelsFile;
}

/** The fixtures held by both files' contents, taken as they are (the package's own, validated by its tests). */
export function fixturesOf(models: ModelsFile, generations: GenerationsFile): Fixtures {
  return { models: models.models, aliases: models.aliases, speech: models.speech, transcription: models.transcription, providers: models.providers, generations: generations.generations };
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
    if (speaks && model.supported_voices !== null && model.supported_voices.length === 0) {
      throw new FixtureError(file, `${list}[${i}].supported_voices`, 'expected a non-empty list of voices for a speech model, or null when it takes any voice id');
    }
    if (speaks && entryOf(data.speech, model.id) === undefined) {
      throw new FixtureError(file, formatPath(['speech', model.id]), `missing entry for speech model "${model.id}"`);
    }
    if (model.architecture.output_modalities.includes('transcription') && entryOf(data.transcription, model.id) === undefined) {
      throw new FixtureError(file, formatPath(['transcription', model.id]), `missing entry for speech-to-text model "${model.id}" (its architecture.output_modalities include "transcription")`);
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
    const speechProvider = entryOf(data.speech, id)?.provider_name;
    if (speechProvider !== undefined && !providers.some((p) => p.provider_name === speechProvider)) {
      throw new FixtureError(file, formatPath(['providers', id]), `expected the speech provider "${speechProvider}" (speech.${id}.provider_name) among the providers`);
    }
    const sttProvider = entryOf(data.transcription, id)?.provider_name;
    if (sttProvider !== undefined && !providers.some((p) => p.provider_name === sttProvider)) {
      throw new FixtureError(file, formatPath(['providers', id]), `expected the transcription provider "${sttProvider}" (transcription.${id}.provider_name) among the providers`);
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
  for (const id of Object.keys(data.transcription ?? {})) {
    const index = ids.get(id);
    if (index === undefined) {
      throw new FixtureError(file, formatPath(['transcription', id]), `expected the id of a model in ${list}, got "${id}"`);
    }
    const model = data.models[index];
    if (model !== undefined && !model.architecture.output_modalities.includes('transcription')) {
      throw new FixtureError(file, formatPath(['transcription', id]), `model "${id}" does not list "transcription" in architecture.output_modalities`);
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
