/**
 * The `transcription` entries of a recorded `models.json` (`TranscriptionModelInfoSchema` of
 * `src/core/formats/fixture-schema.ts`): one for each speech-to-text model recorded, so `--fixtures` loads the folder
 * (every model whose output modalities include `transcription` needs one) and serves transcription for it.
 *
 * @module
 */
import type { ModelRecord, ProviderEntry, TranscriptionModelInfo } from '../core/formats/fixture-schema.js';
import { transcriptionInfoOf } from '../core/formats/saved-catalog.js';
import { loadFixtures } from '../node-platform/fixtures.js';

/**
 * A transcription entry for each of `models` that outputs transcription: the folder's own entry (`own`) when it had
 * one, else the package's own for the same id (`fixtures/models.json`), else what `--fixtures` derives for a saved
 * catalog (`transcriptionInfoOf` of `src/core/formats/saved-catalog.ts`); then `provider_name` is the first recorded
 * endpoint's (`providers`) when the entry's is not among them.
 */
export function transcriptionEntriesOf(
  models: readonly ModelRecord[],
  own: ReadonlyMap<string, TranscriptionModelInfo>,
  providers: Readonly<Record<string, readonly ProviderEntry[]>>,
): Record<string, TranscriptionModelInfo> {
  // No prototype: a model id such as `__proto__` is a key like any other.
  const entries = Object.create(null) as Record<string, TranscriptionModelInfo>;
  const packaged = loadFixtures().transcription ?? {};
  for (const record of models) {
    if (!record.architecture.output_modalities.includes('transcription')) continue;
    const base = own.get(record.id) ?? (Object.hasOwn(packaged, record.id) ? packaged[record.id] : undefined) ?? transcriptionInfoOf(record);
    const recorded = Object.hasOwn(providers, record.id) ? providers[record.id] : undefined;
    const provider = recorded === undefined || recorded.some((p) => p.provider_name === base.provider_name) ? base.provider_name : recorded[0]!.provider_name;
    entries[record.id] = { ...base, provider_name: provider };
  }
  return entries;
}
