/**
 * zod schema of a Model record exactly as `GET /model/{author}/{slug}` serves it in `data` (`docs/behaviour.md`,
 * "Model lookup"; the inbound schemas of `@openrouter/sdk` 1.3.19), its parts, and an alias entry of
 * `fixtures/models.json`; the file's schema is `fixture-schema.ts`, which re-exports these. Records are loose
 * objects: unknown keys are kept (and served).
 *
 * @module
 */
import * as z from 'zod';
import { DecimalString, NonEmptyString } from './schema-parts.js';

/** `pricing` of a Model record: USD per unit, as decimal strings. `prompt` and `completion` are required. */
const PricingSchema = z.lazy(() =>
  z.looseObject({
    prompt: DecimalString,
    completion: DecimalString,
    request: DecimalString.optional(),
    image: DecimalString.optional(),
    image_token: DecimalString.optional(),
    image_output: DecimalString.optional(),
    audio: DecimalString.optional(),
    audio_output: DecimalString.optional(),
    input_audio_cache: DecimalString.optional(),
    web_search: DecimalString.optional(),
    internal_reasoning: DecimalString.optional(),
    input_cache_read: DecimalString.optional(),
    input_cache_write: DecimalString.optional(),
    input_cache_write_1h: DecimalString.optional(),
    discount: z.number().optional(),
  }),
);

/** `architecture` of a Model record. `modality` is the input and output modalities joined by `->`. */
export const ArchitectureSchema = z.lazy(() =>
  z.looseObject({
    modality: z.string().nullable(),
    input_modalities: z.array(NonEmptyString),
    output_modalities: z.array(NonEmptyString),
    tokenizer: z.string().optional(),
    instruct_type: z.string().nullable().optional(),
  }),
);

/** `top_provider` of a Model record. */
export const TopProviderSchema = z.lazy(() =>
  z.looseObject({
    context_length: z.int().nullable().optional(),
    max_completion_tokens: z.int().nullable().optional(),
    is_moderated: z.boolean(),
  }),
);

/** `per_request_limits` of a Model record (when not null). */
const PerRequestLimitsSchema = z.lazy(() =>
  z.looseObject({
    prompt_tokens: z.number(),
    completion_tokens: z.number(),
  }),
);

/** `default_parameters` of a Model record (when not null). */
const DefaultParametersSchema = z.lazy(() =>
  z.looseObject({
    temperature: z.number().nullable().optional(),
    top_p: z.number().nullable().optional(),
    top_k: z.int().nullable().optional(),
    frequency_penalty: z.number().nullable().optional(),
    presence_penalty: z.number().nullable().optional(),
    repetition_penalty: z.number().nullable().optional(),
  }),
);

/** `reasoning` of a Model record (reasoning models only). */
const ReasoningSchema = z.lazy(() =>
  z.looseObject({
    mandatory: z.boolean(),
    default_enabled: z.boolean().optional(),
    default_effort: z.string().nullable().optional(),
    supported_efforts: z.array(z.string().nullable()).nullable().optional(),
    supports_max_tokens: z.boolean().optional(),
  }),
);

/** `alias_target` of a `~author/family-latest` alias record: the concrete model the alias stands for. */
const AliasTargetSchema = z.lazy(() =>
  z.strictObject({
    slug: NonEmptyString,
    name: z.string(),
  }),
);

/**
 * A Model record exactly as `GET /model/{author}/{slug}` returns it in `data` (`docs/behaviour.md`, "Model lookup").
 * Required keys (null allowed for `per_request_limits`, `default_parameters`, `supported_voices`):
 * id, canonical_slug, name, created, pricing, context_length, architecture, top_provider, per_request_limits,
 * supported_parameters, default_parameters, supported_voices, links.
 */
export const ModelRecordSchema = z.lazy(() =>
  z.looseObject({
    id: NonEmptyString,
    canonical_slug: NonEmptyString,
    hugging_face_id: z.string().nullable().optional(),
    name: NonEmptyString,
    created: z.int(),
    description: z.string().optional(),
    context_length: z.int().nullable(),
    architecture: ArchitectureSchema,
    pricing: PricingSchema,
    top_provider: TopProviderSchema,
    per_request_limits: PerRequestLimitsSchema.nullable(),
    supported_parameters: z.array(NonEmptyString),
    default_parameters: DefaultParametersSchema.nullable(),
    supported_voices: z.array(NonEmptyString).nullable(),
    reasoning: ReasoningSchema.optional(),
    knowledge_cutoff: z.string().nullable().optional(),
    expiration_date: z.string().nullable().optional(),
    alias_target: AliasTargetSchema.optional(),
    links: z.looseObject({ details: NonEmptyString }),
  }),
);

/**
 * An alias of `fixtures/models.json`. `alias` answers with the record of `target` (a base model id).
 * With `alias_target: true` (the `~author/family-latest` kind) the answer keeps the alias as its `id` and carries
 * `alias_target: {slug, name}`; otherwise the target's record is returned unchanged.
 */
export const AliasSchema = z.lazy(() =>
  z.strictObject({
    alias: NonEmptyString,
    target: NonEmptyString,
    alias_target: z.boolean().optional(),
  }),
);

/** A Model record as the gateway serves it (see {@link ModelRecordSchema}). Unknown keys are kept. */
export type ModelRecord = z.output<typeof ModelRecordSchema>;
/** An alias entry of `fixtures/models.json` (see {@link AliasSchema}). */
export type Alias = z.output<typeof AliasSchema>;
