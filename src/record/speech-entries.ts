/**
 * The `speech` entries of a recorded `models.json` (`SpeechModelInfoSchema` of `src/core/config/fixture-schema.ts`):
 * one for each speech model recorded, so `--fixtures` serves speech for it.
 *
 * @module
 */
import type { ModelRecord, ProviderEntry, SpeechModelInfo } from '../core/config/fixture-schema.js';
import { speechInfoOf } from '../core/catalog/saved-catalog.js';
import { loadFixtures } from '../node/fixtures.js';

/** What a recorded folder knows beyond the records. */
export interface SpeechEvidence {
  /** The folder's own speech entries (from a `models.json` it held), by model id. */
  readonly own: ReadonlyMap<string, SpeechModelInfo>;
  /** The providers of the models recorded (their endpoints), by model id. */
  readonly providers: Readonly<Record<string, readonly ProviderEntry[]>>;
  /** The `response_format`s of the speech calls recorded, by model id. */
  readonly formats: ReadonlyMap<string, ReadonlySet<'mp3' | 'pcm'>>;
}

/**
 * A speech entry for each of `models` that outputs speech: the folder's own entry when it had one, else the
 * package's own for the same id (`fixtures/models.json`), else what `--fixtures` derives for a saved catalog
 * (`speechInfoOf` of `src/core/catalog/saved-catalog.ts`: provider from the name before `: `, `max_input_chars`
 * 4096, formats `["pcm"]` for `google/`, else `["mp3", "pcm"]`); then `response_formats` are the formats of the
 * speech calls recorded (added to a known entry's), and `provider_name` is the first recorded endpoint's when the
 * entry's is not among the recorded endpoints.
 */
export function speechEntriesOf(models: readonly ModelRecord[], evidence: SpeechEvidence): Record<string, SpeechModelInfo> {
  // No prototype: a model id such as `__proto__` is a key like any other.
  const speech = Object.create(null) as Record<string, SpeechModelInfo>;
  const packaged = loadFixtures().speech;
  for (const record of models) {
    if (!record.architecture.output_modalities.includes('speech')) continue;
    const known = evidence.own.get(record.id) ?? (Object.hasOwn(packaged, record.id) ? packaged[record.id] : undefined);
    const base = known ?? speechInfoOf(record);
    const recorded = Object.hasOwn(evidence.providers, record.id) ? evidence.providers[record.id] : undefined;
    const provider = recorded === undefined || recorded.some((p) => p.provider_name === base.provider_name) ? base.provider_name : recorded[0]!.provider_name;
    const formats = evidence.formats.get(record.id);
    const fromCalls = (['mp3', 'pcm'] as const).filter((f) => formats?.has(f));
    const responseFormats = fromCalls.length === 0 ? base.response_formats : known ? [...new Set([...known.response_formats, ...fromCalls])] : fromCalls;
    speech[record.id] = { ...base, provider_name: provider, response_formats: responseFormats };
  }
  return speech;
}
