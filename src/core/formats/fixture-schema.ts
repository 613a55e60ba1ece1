/**
 * zod schemas of the committed fixture files (`fixtures/models.json`; `fixtures/generations.json` in
 * `generation-schema.ts`) and of the records in them (a Model record and an alias in `model-record-schema.ts`; both
 * files re-exported here), and what the fixture files hold once read ({@link Fixtures}).
 *
 * The record schemas follow `docs/behaviour.md` ("Model lookup" and "Generation lookup") and the inbound schemas
 * of the official SDK `@openrouter/sdk` 1.3.19: every key the SDK requires is required here, with the same
 * nullability. They are a little stricter where `docs/behaviour.md` says more than the SDK checks (pricing values
 * must be decimal strings, `created_at` must carry an explicit UTC offset, `data_region` must be
 * `global|europe|us`).
 *
 * Records are loose objects: unknown keys are kept (and served), so a record copied from the real gateway with
 * newer fields still loads. The file wrappers, aliases and speech entries are strict: a typo there is an error.
 *
 * @module
 */
import * as z from 'zod';
import type { GenerationRecord } from './generation-schema.js';
import type { Recordings } from './recording-schema.js';
import { AliasSchema, ModelRecordSchema, type Alias, type ModelRecord } from './model-record-schema.js';
import { DecimalString, NonEmptyString } from './schema-parts.js';
import type { FixtureTranscript } from './transcript-schema.js';

export { GenerationRecordSchema, GenerationsFileSchema, ProviderResponseSchema, type GenerationRecord, type GenerationsFile } from './generation-schema.js';
export { AliasSchema, ArchitectureSchema, ModelRecordSchema, TopProviderSchema, type Alias, type ModelRecord } from './model-record-schema.js';

/** Speech facts of one TTS model that are not part of its Model record. */
export const SpeechModelInfoSchema = z.lazy(() =>
  z.strictObject({
    /**
     * Display name of the upstream provider that serves it (`OpenAI`, `Google AI Studio`, `xAI`, ...): the
     * `provider_name` of its generation records and of its endpoint (`listEndpoints`).
     */
    provider_name: NonEmptyString,
    /** Accepted `response_format` values; Gemini TTS is `["pcm"]` only. */
    response_formats: z.array(z.enum(['mp3', 'pcm'])).min(1, 'expected at least one response format'),
    /** Longest accepted `input`, in characters. */
    max_input_chars: z.int().positive(),
    /**
     * Whether the model honors the request's `speed` (0.25 to 4). The gateway's records do not say it
     * (`speed` is not a value of the OpenAPI document's `Parameter` enum, so it is not in `supported_parameters`);
     * default false: `speed` is accepted and ignored.
     */
    supports_speed: z.boolean().optional(),
    /**
     * The `speed` range the provider documents, when it is not 0.25–4 (`speed` of the speech model discovery reads);
     * implies `supports_speed`.
     */
    speed_range: z.strictObject({ min: z.number().min(0.25), max: z.number().max(4) }).refine((range) => range.min <= range.max, 'expected min ≤ max').optional(),
    /** Whether the model takes `instructions` (listed as `{type: "unknown"}` by the discovery reads); default false. */
    instructions: z.boolean().optional(),
    /**
     * Inputs taken besides text, as `input_references` (`audio`: voice cloning; `image`: voice design); default none,
     * and a request with `input_references` is refused.
     */
    input_modalities: z.array(z.enum(['audio', 'image'])).optional(),
    /**
     * Whether the model takes `input` as a list of turns `{text, voice?, instructions?}` ("multi-speaker input" of the
     * gateway's `SpeechInput`: Gemini TTS, and Fish Audio models other than S1); default false, and a list is refused.
     */
    multi_speaker: z.boolean().optional(),
    /**
     * For a model without speed control (neither `supports_speed` nor `speed_range`): whether a `speed` other than 1 is
     * refused with a 400 (`true`) or accepted and ignored (default). The gateway's `speed` docs: "Other providers either
     * ignore it or return a 400 for a non-default value when the model has no speed control".
     */
    speed_refusal: z.boolean().optional(),
  }).refine((info) => !(info.speed_refusal === true && (info.supports_speed === true || info.speed_range !== undefined)), {
    message: 'expected speed_refusal only on a model without speed control (no supports_speed, no speed_range)',
    path: ['speed_refusal'],
  }),
);

/**
 * Transcription facts of one speech-to-text model that are not part of its Model record (`createAudioTranscriptions`;
 * `docs/transcription.md`, "Models").
 */
export const TranscriptionModelInfoSchema = z.lazy(() =>
  z.strictObject({
    /** Display name of the provider that serves it: the `provider_name` of its generation records and endpoint. */
    provider_name: NonEmptyString,
    /**
     * How the provider bills a transcription, and so what `usage` carries: `second` (`usage.seconds`, the audio's
     * length rounded up to a whole second, × `price_per_second`) or `token` (`usage.input_tokens` for the audio, at
     * the record's `pricing.audio` (else `pricing.prompt`), and `output_tokens` for the text, at `pricing.completion`).
     */
    priced_by: z.enum(['second', 'token']),
    /** USD per second of audio, for `priced_by: "second"` (decimal string). */
    price_per_second: DecimalString.optional(),
    /** Whether `response_format: "verbose_json"` is served ("only supported by OpenAI-compatible providers"); default true. */
    verbose_json: z.boolean().optional(),
    /** Whether the model labels speakers (`diarize`; the endpoint's `supports_diarization`); default false. */
    diarization: z.boolean().optional(),
    /** Whether the model takes `keyterms`; default false. */
    keyterms: z.boolean().optional(),
    /** Whether the model takes `input_audio.url` ("only supported by some providers"); default false. */
    url_input: z.boolean().optional(),
  }).refine((info) => info.priced_by !== 'second' || info.price_per_second !== undefined, { message: 'expected price_per_second for priced_by "second"', path: ['price_per_second'] }),
);

/** `quantization` values of an endpoint (the OpenAPI document's `Quantization` enum). */
export const QUANTIZATIONS = ['int4', 'int8', 'fp4', 'fp6', 'fp8', 'fp16', 'bf16', 'fp32', 'unknown'] as const;

/**
 * One provider that serves a model: the hand-written part of a `PublicEndpoint` of `listEndpoints`
 * (`GET /models/{author}/{slug}/endpoints`). The rest of the endpoint comes from the model's record (name, context
 * length, pricing, supported parameters) or is drawn from the seed (latency, throughput, uptime); see
 * `src/core/catalog/derive-endpoints.ts`.
 */
export const ProviderEntrySchema = z.lazy(() =>
  z.strictObject({
    /** The provider's display name, a value of the document's `ProviderName` enum (`DeepInfra`, `Google AI Studio`). */
    provider_name: NonEmptyString,
    /** The endpoint's tag: the provider slug, with the quantization when the provider serves several (`deepinfra/fp8`). */
    tag: NonEmptyString,
    /** Weights precision the provider serves; null when it does not say. */
    quantization: z.enum(QUANTIZATIONS).nullable(),
    /** Longest completion at this provider, tokens; default: the record's `top_provider.max_completion_tokens`. */
    max_completion_tokens: z.int().positive().nullable().optional(),
    /** Whether the provider caches prompts without being asked; default false. */
    supports_implicit_caching: z.boolean().optional(),
    /**
     * The endpoint's data policy, which a request's `provider.zdr` and `provider.data_collection` route by
     * (`src/core/catalog/data-policy.ts`). Absent: the gateway's stance for a policy it cannot ascertain ("assume that
     * the endpoint both retains and trains on data", its Zero Data Retention guide), `{zdr: false, training: true}`.
     */
    data_policy: z
      .strictObject({
        /** Whether the endpoint has a Zero Data Retention policy (it stores no prompt or answer); such an endpoint does not train. */
        zdr: z.boolean(),
        /** Whether the provider stores user data non-transiently and may train on it: what `data_collection: "deny"` excludes. */
        training: z.boolean(),
      })
      .refine((policy) => !(policy.zdr && policy.training), { message: 'expected training false where zdr is true (an endpoint that retains nothing cannot train on it)', path: ['training'] })
      .optional(),
  }),
);

/** The whole of `fixtures/models.json`. */
export const ModelsFileSchema = z.lazy(() =>
  z.strictObject({
    models: z.array(ModelRecordSchema),
    aliases: z.array(AliasSchema),
    speech: z.record(z.string(), SpeechModelInfoSchema),
    /** Transcription facts keyed by base model id; one entry per model whose output modalities include `transcription`. */
    transcription: z.record(z.string(), TranscriptionModelInfoSchema).optional(),
    /**
     * The providers of each base model, keyed by model id, first = the one the simulator routes to. A model
     * without an entry has one provider: its speech provider, or the part of its `name` before `: `.
     */
    providers: z.record(z.string(), z.array(ProviderEntrySchema).min(1, 'expected at least one provider')).optional(),
  }),
);

/** Speech facts of one TTS model (see {@link SpeechModelInfoSchema}). */
export type SpeechModelInfo = z.output<typeof SpeechModelInfoSchema>;
/** Transcription facts of one speech-to-text model (see {@link TranscriptionModelInfoSchema}). */
export type TranscriptionModelInfo = z.output<typeof TranscriptionModelInfoSchema>;
/** One provider of a model (see {@link ProviderEntrySchema}). */
export type ProviderEntry = z.output<typeof ProviderEntrySchema>;
/** Parsed `fixtures/models.json`. */
export type ModelsFile = z.output<typeof ModelsFileSchema>;

/**
 * The entry of model `id` in a map keyed by model id (`Fixtures.speech`, `Fixtures.providers`): its own entries only,
 * so that an id such as `toString` or `constructor` is a plain name (no entry unless the file gives one), never a
 * property every object inherits.
 */
export function entryOf<T>(map: Readonly<Record<string, T>> | undefined, id: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, id) ? map[id] : undefined;
}

/** Everything the fixture files hold, after validation. */
export interface Fixtures {
  /** Base model records, in file order. */
  models: ModelRecord[];
  /** Slug aliases, in file order. */
  aliases: Alias[];
  /**
   * Speech facts keyed by base model id; one entry per model whose output modalities include `speech`. Look an id up
   * with {@link entryOf} (own entries only).
   */
  speech: Record<string, SpeechModelInfo>;
  /** Transcription facts keyed by base model id (see `ModelsFileSchema`); look an id up with {@link entryOf}. */
  transcription?: Record<string, TranscriptionModelInfo> | undefined;
  /**
   * The providers of base models, keyed by model id (models without an entry get a default; see `ModelsFileSchema`).
   * Look an id up with {@link entryOf}.
   */
  providers?: Record<string, ProviderEntry[]> | undefined;
  /** Known generation records, in file order. */
  generations: GenerationRecord[];
  /**
   * Recorded speech answers (a recorded folder's `audio/index.json`, `src/core/formats/recording-schema.ts`), keyed
   * by the normalized request; a speech request whose key is here is answered with those bytes. None by default.
   */
  recordings?: Recordings | undefined;
  /**
   * Transcripts of audio apps bring (a fixtures folder's `transcripts.json`, `transcript-schema.ts`), keyed by the
   * audio's SHA-256 (hex); a transcription of audio whose hash is here answers that transcript. None by default.
   */
  transcripts?: ReadonlyMap<string, FixtureTranscript> | undefined;
}
