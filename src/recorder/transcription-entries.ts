/**
 * The `transcription` entries of a recorded `models.json` (`TranscriptionModelInfoSchema` of
 * `src/core/formats/fixture-schema.ts`): one for each model recorded whose output modalities include
 * `transcription`, so `--fixtures` serves transcriptions for it (a model without one answers 400, "not a
 * transcription model").
 *
 * @module
 */
import { entryOf, type ModelRecord, type TranscriptionModelInfo } from '../core/formats/fixture-schema.js';
import { loadFixtures } from '../node-platform/fixtures.js';

/** Whether `record` is a speech-to-text model (its output modalities include `transcription`). */
export function transcribes(record: ModelRecord): boolean {
  return record.architecture.output_modalities.includes('transcription');
}

/**
 * The entry of a transcription model: the folder's own (`own`, from a `models.json` it held), else the package's own
 * for the same id (`fixtures/models.json`), else one derived from the record: `provider_name` the part of its `name`
 * before `: ` (else the id's author), `priced_by: "token"` (at the record's `pricing`), the rest the defaults
 * (`verbose_json` served; no diarization, keyterms or URL input).
 */
export function transcriptionInfoOf(record: ModelRecord, own: ReadonlyMap<string, TranscriptionModelInfo>): TranscriptionModelInfo {
  const known = own.get(record.id) ?? entryOf(loadFixtures().transcription, record.id);
  if (known !== undefined) return { ...known };
  const colon = record.name.indexOf(': ');
  return { provider_name: colon > 0 ? record.name.slice(0, colon) : (record.id.split('/')[0] ?? record.id), priced_by: 'token' };
}

/** The `transcription` entries of `models` ({@link transcriptionInfoOf}), or `undefined` when none transcribes. */
export function transcriptionEntriesOf(models: readonly ModelRecord[], own: ReadonlyMap<string, TranscriptionModelInfo>): Record<string, TranscriptionModelInfo> | undefined {
  // No prototype: a model id such as `__proto__` is a key like any other.
  const entries = Object.create(null) as Record<string, TranscriptionModelInfo>;
  let any = false;
  for (const record of models) {
    if (!transcribes(record)) continue;
    entries[record.id] = transcriptionInfoOf(record, own);
    any = true;
  }
  return any ? entries : undefined;
}
