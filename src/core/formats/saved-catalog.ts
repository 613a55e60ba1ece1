/**
 * A saved real catalog: the gateway's answer to `GET /api/v1/models?output_modalities=all` (the OpenAPI operation
 * `getModels`), saved as it came, read as the `models.json` of a fixtures folder (`docs/recording.md`).
 * It holds Model records only: the speech and transcription facts the fixtures keep beside them
 * (`SpeechModelInfoSchema`, `TranscriptionModelInfoSchema`) are derived here, aliases are none, and every model's endpoint is derived from its record
 * (`src/core/catalog/derive-endpoints.ts`, one provider named as `Catalog.providers` names it).
 *
 * @module
 */
import * as z from 'zod';
import { entryOf, ModelRecordSchema } from './fixture-schema.js';
import type { ModelRecord, ModelsFile, SpeechModelInfo, TranscriptionModelInfo } from './fixture-schema.js';
import { type ConfigErrorClass } from '../base/errors.js';

import { validateConfig } from '../base/validate-config.js';

/**
 * The saved answer of `getModels`: `{"data": [<Model record>, ...]}`. Other top-level keys are ignored (the
 * answer may grow some); each record is checked by `ModelRecordSchema` and keeps its unknown keys.
 */
export const SavedCatalogSchema = z.lazy(() => z.looseObject({ data: z.array(ModelRecordSchema) }));

/** The saved answer of `getModels`, parsed (see {@link SavedCatalogSchema}). */
export type SavedCatalog = z.output<typeof SavedCatalogSchema>;

/**
 * `max_input_chars` of a derived speech entry when nothing known gives it: 4096 characters, the OpenAI speech
 * API's limit (`openai/gpt-4o-mini-tts-*` in `fixtures/models.json`), the smallest the package's speech models have.
 */
export const DEFAULT_MAX_INPUT_CHARS = 4096;

/**
 * Whether a parsed `models.json` is the saved answer of `getModels` (an object with a `data` key and no `models`
 * key) rather than the fixtures shape (`{models, aliases, speech, providers?}`).
 */
export function isSavedCatalog(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'data' in value && !('models' in value);
}

/**
 * The speech facts of a speech model of a saved catalog (a record whose `architecture.output_modalities` include
 * `speech`):
 *
 * - the package's own entry for the same id, when `known` has one (its provider, formats, input limit and speed
 *   support were written by hand from the gateway's documentation);
 * - else `provider_name`: the part of the record's `name` before `: ` (`OpenAI: GPT-4o mini TTS` → `OpenAI`), or
 *   the id's author; `response_formats`: the record's own list when it carries one (`response_formats` or
 *   `supported_response_formats`, values among `mp3` and `pcm`), else `["pcm"]` for a `google/` model (the
 *   gateway's Gemini TTS answers PCM only), else `["mp3", "pcm"]`; `max_input_chars`: the record's own
 *   (`max_input_chars`) when a positive integer, else {@link DEFAULT_MAX_INPUT_CHARS}; `supports_speed`: false
 *   (`speed` is accepted and ignored).
 */
export function speechInfoOf(record: ModelRecord, known?: Readonly<Record<string, SpeechModelInfo>>): SpeechModelInfo {
  const builtIn = entryOf(known, record.id);
  if (builtIn) return { ...builtIn, response_formats: [...builtIn.response_formats] };
  const colon = record.name.indexOf(': ');
  const author = record.id.split('/')[0] ?? record.id;
  const own = record as Record<string, unknown>;
  const listed = [own['response_formats'], own['supported_response_formats']].find(Array.isArray) as unknown[] | undefined;
  const formats = (listed ?? []).filter((f): f is 'mp3' | 'pcm' => f === 'mp3' || f === 'pcm');
  const maxChars = own['max_input_chars'];
  return {
    provider_name: colon > 0 ? record.name.slice(0, colon) : author,
    response_formats: formats.length > 0 ? [...new Set(formats)] : author === 'google' ? ['pcm'] : ['mp3', 'pcm'],
    max_input_chars: typeof maxChars === 'number' && Number.isInteger(maxChars) && maxChars > 0 ? maxChars : DEFAULT_MAX_INPUT_CHARS,
    supports_speed: false,
  };
}

/**
 * The transcription facts of a speech-to-text model of a saved catalog (a record whose
 * `architecture.output_modalities` include `transcription`): the package's own entry for the same id, when `known`
 * has one (written by hand from the model pages); else `provider_name` as {@link speechInfoOf} names it;
 * billed by the token when the record prices tokens (`pricing.prompt`, `pricing.audio` or `pricing.completion` above
 * 0), else by the second at 0 (a record does not carry a price per second); `verbose_json` only for an `openai/`
 * model (OpenAI-compatible); no diarization, key terms or audio URL (no record says them).
 */
export function transcriptionInfoOf(record: ModelRecord, known?: Readonly<Record<string, TranscriptionModelInfo>>): TranscriptionModelInfo {
  const builtIn = entryOf(known, record.id);
  if (builtIn) return { ...builtIn };
  const colon = record.name.indexOf(': ');
  const author = record.id.split('/')[0] ?? record.id;
  const pricing = record.pricing as Record<string, unknown>;
  const byToken = ['prompt', 'audio', 'completion'].some((key) => Number(pricing[key] ?? 0) > 0);
  return {
    provider_name: colon > 0 ? record.name.slice(0, colon) : author,
    ...(byToken ? { priced_by: 'token' as const } : { priced_by: 'second' as const, price_per_second: '0' }),
    verbose_json: author === 'openai',
  };
}

/**
 * Reads a saved `getModels` answer as the contents of a fixtures `models.json`: `models` = `data` (in order,
 * records as they are, variant ids such as `author/slug:free` included: the catalog serves a listed id as it is
 * listed, so the saved record of the variant is served rather than one derived from its base), `aliases` = none,
 * `speech` = {@link speechInfoOf} for each speech model, `transcription` = {@link transcriptionInfoOf} for each
 * speech-to-text model, `providers` = none.
 *
 * @param value the file's parsed JSON; `file` names it in errors.
 * @param known speech entries to prefer for the ids they have (the package's own, `fixtures/models.json`).
 * @param knownTranscription transcription entries to prefer likewise.
 * @throws {ConfigFileError} of class `ErrorClass` naming `file` and the path inside it (`data[12].pricing.prompt`)
 *   when a record violates `ModelRecordSchema` or `data` is not a list.
 */
export function savedCatalogToModelsFile(
  file: string,
  value: unknown,
  ErrorClass: ConfigErrorClass,
  known?: Readonly<Record<string, SpeechModelInfo>>,
  knownTranscription?: Readonly<Record<string, TranscriptionModelInfo>>,
): ModelsFile {
  const saved: SavedCatalog = validateConfig(file, value, SavedCatalogSchema, ErrorClass);
  const speech: Record<string, SpeechModelInfo> = {};
  const transcription: Record<string, TranscriptionModelInfo> = {};
  for (const record of saved.data) {
    if (record.architecture.output_modalities.includes('speech')) speech[record.id] = speechInfoOf(record, known);
    if (record.architecture.output_modalities.includes('transcription')) transcription[record.id] = transcriptionInfoOf(record, knownTranscription);
  }
  return { models: saved.data, aliases: [], speech, transcription };
}
