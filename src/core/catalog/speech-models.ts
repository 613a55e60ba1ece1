/**
 * What each speech model takes, stated once for the two places that need it: the speech model discovery reads
 * (`GET /audio/speech/models` and `GET /audio/speech/models/{author}/{slug}`, `docs/behaviour.md`, "Speech model
 * discovery") and the checks of `POST /audio/speech` (`src/core/operations/speech.ts`), so that the list says exactly
 * what a speech request accepts.
 *
 * Each endpoint of a speech model (one per provider of the catalog, `Catalog.providers`) takes: the voices of the
 * model's `supported_voices` (`null` there: any voice id, `{type: "unknown"}`), the `response_format`s of its speech
 * entry, `speed` in the entry's `speed_range` (0.25–4 where it says only `supports_speed`), `instructions` where the
 * entry says so, and text input, with the entry's `input_modalities` (audio, image) for `input_references`. The model's own parameters are the
 * envelope of its endpoints': enums unioned, ranges widened, `unknown` where any endpoint takes any value, as the
 * gateway documents `SpeechModelResponse`.
 *
 * @module
 */
import type { ModelRecord, ProviderEntry, SpeechModelInfo } from '../formats/fixture-schema.js';
import { SPEED_RANGE } from '../audio/types.js';

/** A parameter whose values are listed (`voice`, `response_format`). */
export interface SpeechEnumParameter {
  readonly type: 'enum';
  readonly values: readonly string[];
}

/** A parameter taken with any value (`voice` of a provider that lists none; `instructions`). */
export interface SpeechUnknownParameter {
  readonly type: 'unknown';
}

/** The accepted range of `speed`. */
export interface SpeechRangeParameter {
  readonly type: 'range';
  readonly min: number;
  readonly max: number;
}

/** `supported_parameters` of a speech output modality; a member is absent where the endpoint does not take it. */
export interface SpeechSupportedParameters {
  readonly voice?: SpeechEnumParameter | SpeechUnknownParameter;
  readonly response_format?: SpeechEnumParameter;
  readonly speed?: SpeechRangeParameter;
  readonly instructions?: SpeechUnknownParameter;
}

/** An input a speech model takes: `text`, or `audio` and `image` (the `input_references` of voice cloning and design). */
export interface SpeechInputModality {
  readonly type: 'text' | 'audio' | 'image';
}

/** The output of a speech model, with the parameters that shape it. */
export interface SpeechOutputModality {
  readonly type: 'speech';
  readonly supported_parameters: SpeechSupportedParameters;
}

/** One endpoint serving a speech model, with exactly what it takes (`SpeechModelEndpoint`). */
export interface SpeechModelEndpoint {
  readonly provider_name: string;
  readonly provider_slug: string;
  readonly input_modalities: readonly SpeechInputModality[];
  readonly output_modalities: readonly SpeechOutputModality[];
}

/** A speech model as the discovery reads answer it (`SpeechModelResponse`). */
export interface SpeechModelResponse {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Unix seconds. */
  readonly created: number;
  readonly input_modalities: readonly SpeechInputModality[];
  readonly output_modalities: readonly SpeechOutputModality[];
  readonly endpoints: readonly SpeechModelEndpoint[];
}

/** What a speech request may carry for one model: the envelope of its endpoints (see the module's comment). */
export interface SpeechAcceptance {
  /** The voices listed, or `null` when any non-empty voice id is taken. */
  readonly voices: readonly string[] | null;
  /** The `response_format`s taken. */
  readonly formats: readonly ('mp3' | 'pcm')[];
  /** The `speed` range taken, or `null` when `speed` is ignored. */
  readonly speed: { readonly min: number; readonly max: number } | null;
  /** The inputs taken: `text`, and `audio` / `image` for `input_references`. */
  readonly inputs: readonly SpeechInputModality['type'][];
}

/** The slug of a provider entry: its tag without the quantization (`deepinfra/fp8` → `deepinfra`). */
function providerSlug(provider: ProviderEntry): string {
  return provider.tag.split('/')[0]!;
}

/** The parameters of one endpoint of a speech model. */
function endpointParameters(record: ModelRecord, speech: SpeechModelInfo): SpeechSupportedParameters {
  const speed = speech.speed_range ?? (speech.supports_speed === true ? SPEED_RANGE : undefined);
  return {
    voice: record.supported_voices === null ? { type: 'unknown' } : { type: 'enum', values: [...record.supported_voices] },
    response_format: { type: 'enum', values: [...speech.response_formats] },
    ...(speed ? { speed: { type: 'range', min: speed.min, max: speed.max } } : {}),
    ...(speech.instructions === true ? { instructions: { type: 'unknown' } } : {}),
  };
}

/**
 * The envelope of several endpoints' parameters: enums unioned (in first-seen order), `unknown` where any endpoint
 * takes any value, ranges widened, a member present where any endpoint has it.
 */
export function envelopeOf(endpoints: readonly SpeechSupportedParameters[]): SpeechSupportedParameters {
  const union = (members: readonly (SpeechEnumParameter | SpeechUnknownParameter | undefined)[]) => {
    const present = members.filter((member) => member !== undefined);
    if (present.length === 0) return undefined;
    if (present.some((member) => member.type === 'unknown')) return { type: 'unknown' } as const;
    return { type: 'enum', values: [...new Set(present.flatMap((member) => (member as SpeechEnumParameter).values))] } as const;
  };
  const ranges = endpoints.map((endpoint) => endpoint.speed).filter((range) => range !== undefined);
  const voice = union(endpoints.map((endpoint) => endpoint.voice));
  const format = union(endpoints.map((endpoint) => endpoint.response_format));
  return {
    ...(voice ? { voice } : {}),
    ...(format && format.type === 'enum' ? { response_format: format } : {}),
    ...(ranges.length > 0 ? { speed: { type: 'range', min: Math.min(...ranges.map((r) => r.min)), max: Math.max(...ranges.map((r) => r.max)) } } : {}),
    ...(endpoints.some((endpoint) => endpoint.instructions) ? { instructions: { type: 'unknown' } } : {}),
  };
}

/**
 * The discovery answer of one speech model.
 *
 * @param record the model's record (its id, name, description, `created`, `supported_voices`).
 * @param speech its speech entry.
 * @param providers its providers, first the one the simulator routes to.
 */
export function speechModelOf(record: ModelRecord, speech: SpeechModelInfo, providers: readonly ProviderEntry[]): SpeechModelResponse {
  const inputs: readonly SpeechInputModality[] = [{ type: 'text' }, ...(speech.input_modalities ?? []).map((type) => ({ type }))];
  const endpoints = providers.map((provider) => ({
    provider_name: provider.provider_name,
    provider_slug: providerSlug(provider),
    input_modalities: inputs,
    output_modalities: [{ type: 'speech' as const, supported_parameters: endpointParameters(record, speech) }],
  }));
  return {
    id: record.id,
    name: record.name,
    description: record.description ?? '',
    created: record.created,
    input_modalities: inputs,
    output_modalities: [{ type: 'speech', supported_parameters: envelopeOf(endpoints.map((endpoint) => endpoint.output_modalities[0]!.supported_parameters)) }],
    endpoints,
  };
}

/** What a speech request to the model of `answer` may carry (the envelope of its endpoints). */
export function acceptanceOf(answer: SpeechModelResponse): SpeechAcceptance {
  const parameters = answer.output_modalities[0]?.supported_parameters ?? {};
  return {
    voices: parameters.voice?.type === 'enum' ? parameters.voice.values : null,
    formats: (parameters.response_format?.values ?? []).filter((value): value is 'mp3' | 'pcm' => value === 'mp3' || value === 'pcm'),
    speed: parameters.speed ? { min: parameters.speed.min, max: parameters.speed.max } : null,
    inputs: answer.input_modalities.map((modality) => modality.type),
  };
}
