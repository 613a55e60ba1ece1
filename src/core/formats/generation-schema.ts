/**
 * zod schema of the committed `fixtures/generations.json` and of the Generation records in it, following
 * `docs/behaviour.md` ("Generation lookup") and the inbound schemas of the official SDK `@openrouter/sdk` 1.3.19
 * (every key the SDK requires is required here, with the same nullability), a little stricter where
 * `docs/behaviour.md` says more (`created_at` must carry an explicit UTC offset, `data_region` must be
 * `global|europe|us`). Records are loose objects: unknown keys are kept (and served); the file wrapper is strict.
 *
 * @module
 */
import * as z from 'zod';
import { IsoDateTimeWithOffset, NonEmptyString } from './schema-parts.js';

const NullableInt = z.lazy(() => z.int().nullable());

/** One entry of `provider_responses`: an attempt at one upstream provider. */
export const ProviderResponseSchema = z.lazy(() =>
  z.looseObject({
    id: z.string().optional(),
    endpoint_id: z.string().optional(),
    model_permaslug: z.string().optional(),
    provider_name: z.string().optional(),
    status: NullableInt,
    latency: z.number().optional(),
    is_byok: z.boolean().optional(),
  }),
);

/**
 * A Generation record exactly as `GET /generation?id=` returns it in `data` (`docs/behaviour.md`, "Generation lookup").
 * Every key is required (null allowed except for id, created_at, model, origin, total_cost, usage, is_byok,
 * data_region); `request_id`, `session_id` and `response_cache_source_id` are optional.
 * Costs are USD; latency, moderation_latency and generation_time are milliseconds.
 */
export const GenerationRecordSchema = z.lazy(() =>
  z.looseObject({
    id: NonEmptyString,
    upstream_id: z.string().nullable(),
    total_cost: z.number(),
    cache_discount: z.number().nullable(),
    upstream_inference_cost: z.number().nullable(),
    created_at: IsoDateTimeWithOffset,
    model: NonEmptyString,
    app_id: NullableInt,
    streamed: z.boolean().nullable(),
    cancelled: z.boolean().nullable(),
    provider_name: z.string().nullable(),
    latency: z.number().nullable(),
    moderation_latency: z.number().nullable(),
    generation_time: z.number().nullable(),
    finish_reason: z.string().nullable(),
    service_tier: z.string().nullable(),
    tokens_prompt: NullableInt,
    tokens_completion: NullableInt,
    native_tokens_prompt: NullableInt,
    native_tokens_completion: NullableInt,
    native_tokens_completion_images: NullableInt,
    native_tokens_reasoning: NullableInt,
    native_tokens_cached: NullableInt,
    num_media_prompt: NullableInt,
    num_input_audio_prompt: NullableInt,
    num_media_completion: NullableInt,
    num_search_results: NullableInt,
    num_fetches: NullableInt,
    web_search_engine: z.string().nullable(),
    origin: z.string(),
    usage: z.number(),
    is_byok: z.boolean(),
    native_finish_reason: z.string().nullable(),
    external_user: z.string().nullable(),
    api_type: z
      .enum(['completions', 'embeddings', 'rerank', 'decisions', 'tts', 'stt', 'video', 'image'])
      .nullable(),
    preset_id: z.string().nullable(),
    router: z.string().nullable(),
    provider_responses: z.array(ProviderResponseSchema).nullable(),
    user_agent: z.string().nullable(),
    http_referer: z.string().nullable(),
    data_region: z.enum(['global', 'europe', 'us']),
    workspace_id: z.string().nullable(),
    request_id: z.string().nullable().optional(),
    session_id: z.string().nullable().optional(),
    response_cache_source_id: z.string().nullable().optional(),
  }),
);

/** The whole of `fixtures/generations.json`. */
export const GenerationsFileSchema = z.lazy(() =>
  z.strictObject({
    generations: z.array(GenerationRecordSchema),
  }),
);

/** A Generation record as the gateway serves it (see {@link GenerationRecordSchema}). Unknown keys are kept. */
export type GenerationRecord = z.output<typeof GenerationRecordSchema>;
/** Parsed `fixtures/generations.json`. */
export type GenerationsFile = z.output<typeof GenerationsFileSchema>;
