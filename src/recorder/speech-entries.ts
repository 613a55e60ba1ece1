/**
 * The `speech` entries of a recorded `models.json` (`SpeechModelInfoSchema` of `src/core/formats/fixture-schema.ts`):
 * one for each speech model recorded, so `--fixtures` serves speech for it.
 *
 * @module
 */
import type { ModelRecord, ProviderEntry, SpeechModelInfo } from '../core/formats/fixture-schema.js';
import { speechInfoOf } from '../core/formats/saved-catalog.js';
import { acceptanceOf, type SpeechModelResponse } from '../core/catalog/speech-models.js';
import { SPEED_RANGE } from '../core/audio/types.js';
import { loadFixtures } from '../node-platform/fixtures.js';

/** What a recorded folder knows beyond the records. */
export interface SpeechEvidence {
  /** The folder's own speech entries (from a `models.json` it held), by model id. */
  readonly own: ReadonlyMap<string, SpeechModelInfo>;
  /** The providers of the models recorded (their endpoints), by model id. */
  readonly providers: Readonly<Record<string, readonly ProviderEntry[]>>;
  /** The `response_format`s of the speech calls recorded, by model id. */
  readonly formats: ReadonlyMap<string, ReadonlySet<'mp3' | 'pcm'>>;
  /** What the speech model discovery reads recorded say each model takes, by model id ({@link discoveryOf}). */
  readonly discovery?: Pick<ReadonlyMap<string, SpeechDiscovery>, 'get'> | undefined;
}

/**
 * What a recorded discovery answer (`SpeechModelResponse`) says a speech model takes, from its model-level
 * `supported_parameters` and `input_modalities`: what `--fixtures` then serves for it.
 */
export interface SpeechDiscovery {
  /** The `voice` enum, or `null` for `{type: "unknown"}` (or no `voice` member): any voice id. */
  readonly voices: readonly string[] | null;
  /** The `response_format` enum's `mp3` and `pcm` (the formats the simulator makes); may be empty. */
  readonly formats: readonly ('mp3' | 'pcm')[];
  /** The `speed` range, clamped to 0.25–4; `null` when `speed` is not listed (or lies outside 0.25–4). */
  readonly speed: { readonly min: number; readonly max: number } | null;
  /** Whether `instructions` is listed. */
  readonly instructions: boolean;
  /** The `input_modalities` besides text. */
  readonly inputs: readonly ('audio' | 'image')[];
}

/** The {@link SpeechDiscovery} of a discovery answer (already checked against `SpeechModelResponseSchema`). */
export function discoveryOf(answer: SpeechModelResponse): SpeechDiscovery {
  const accepted = acceptanceOf(answer);
  const clamp = (value: number) => Math.min(SPEED_RANGE.max, Math.max(SPEED_RANGE.min, value));
  const speed = accepted.speed === null ? null : { min: clamp(accepted.speed.min), max: clamp(accepted.speed.max) };
  return {
    voices: accepted.voices === null ? null : [...new Set(accepted.voices)],
    formats: [...new Set(accepted.formats)],
    speed: speed === null || speed.min > speed.max ? null : speed,
    instructions: answer.output_modalities[0]?.supported_parameters.instructions !== undefined,
    inputs: [...new Set(accepted.inputs.filter((type) => type === 'audio' || type === 'image'))],
  };
}

/**
 * `record` with the voices of its recorded discovery answer, when there is one: the enum's values, or `null` for
 * any voice id (an empty enum, which `--fixtures` refuses, leaves the record's own).
 */
export function withDiscoveredVoices(record: ModelRecord, discovery: SpeechDiscovery | undefined): ModelRecord {
  if (discovery === undefined || !record.architecture.output_modalities.includes('speech')) return record;
  if (discovery.voices !== null && discovery.voices.length === 0) return record;
  return { ...record, supported_voices: discovery.voices === null ? null : [...discovery.voices] };
}

/** The facts of `info` that a recorded discovery answer states, replaced by what it says. */
function withDiscovery(info: SpeechModelInfo, discovery: SpeechDiscovery): SpeechModelInfo {
  const { supports_speed: _speed, speed_range: _range, instructions: _instructions, input_modalities: _inputs, ...rest } = info;
  const full = discovery.speed !== null && discovery.speed.min === SPEED_RANGE.min && discovery.speed.max === SPEED_RANGE.max;
  return {
    ...rest,
    // No mp3 or pcm listed: the formats known stand (an entry needs one).
    response_formats: discovery.formats.length > 0 ? [...discovery.formats] : info.response_formats,
    ...(discovery.speed === null ? {} : full ? { supports_speed: true } : { speed_range: { ...discovery.speed } }),
    ...(discovery.instructions ? { instructions: true } : {}),
    ...(discovery.inputs.length > 0 ? { input_modalities: [...discovery.inputs] } : {}),
  };
}

/**
 * A speech entry for each of `models` that outputs speech: the folder's own entry when it had one, else the
 * package's own for the same id (`fixtures/models.json`), else what `--fixtures` derives for a saved catalog
 * (`speechInfoOf` of `src/core/formats/saved-catalog.ts`: provider from the name before `: `, `max_input_chars`
 * 4096, formats `["pcm"]` for `google/`, else `["mp3", "pcm"]`); then `response_formats` are the formats of the
 * speech calls recorded (added to a known entry's), and `provider_name` is the first recorded endpoint's when the
 * entry's is not among the recorded endpoints. A model whose discovery answer was recorded (`evidence.discovery`)
 * takes from it its `response_formats` (the recorded calls' added), its speed (`supports_speed` for 0.25–4, else
 * `speed_range`), `instructions` and `input_modalities`, in place of the known entry's.
 */
export function speechEntriesOf(models: readonly ModelRecord[], evidence: SpeechEvidence): Record<string, SpeechModelInfo> {
  // No prototype: a model id such as `__proto__` is a key like any other.
  const speech = Object.create(null) as Record<string, SpeechModelInfo>;
  const packaged = loadFixtures().speech;
  for (const record of models) {
    if (!record.architecture.output_modalities.includes('speech')) continue;
    const known = evidence.own.get(record.id) ?? (Object.hasOwn(packaged, record.id) ? packaged[record.id] : undefined);
    const discovered = evidence.discovery?.get(record.id);
    const base = discovered === undefined ? (known ?? speechInfoOf(record)) : withDiscovery(known ?? speechInfoOf(record), discovered);
    const recorded = Object.hasOwn(evidence.providers, record.id) ? evidence.providers[record.id] : undefined;
    const provider = recorded === undefined || recorded.some((p) => p.provider_name === base.provider_name) ? base.provider_name : recorded[0]!.provider_name;
    const formats = evidence.formats.get(record.id);
    const fromCalls = (['mp3', 'pcm'] as const).filter((f) => formats?.has(f));
    const stated = discovered !== undefined && discovered.formats.length > 0;
    const responseFormats = fromCalls.length === 0 ? base.response_formats : known || stated ? [...new Set([...base.response_formats, ...fromCalls])] : fromCalls;
    speech[record.id] = { ...base, provider_name: provider, response_formats: responseFormats };
  }
  return speech;
}
