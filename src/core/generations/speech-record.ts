/**
 * The generation record a speech call leaves behind, as `getGeneration` returns it (`docs/behaviour.md`,
 * "Generation lookup").
 *
 * @module
 */
import { header } from '../request.js';
import { isoWithOffset } from '../clock.js';
import type { GatewayContext } from '../context.js';
import type { ResolvedModel } from '../catalog/catalog.js';
import type { GenerationRecord } from '../fixtures/schema.js';
import { hashString, unitFloat } from '../prng.js';
import type { CoreRequest } from '../types.js';
import { roundUsd } from '../usd.js';

/** What {@link buildSpeechGeneration} needs to know about the call. */
export interface SpeechCall {
  request: CoreRequest;
  body: { model: string; session_id?: string | undefined; user?: string | undefined };
  model: ResolvedModel;
  /** Input length in Unicode code points. */
  characters: number;
  /** Duration of the synthesized audio, ms. */
  audioDurationMs: number;
}

/** Cost of a speech call in USD: characters × the model's `pricing.prompt` (per character), rounded to 1e-12. */
export function speechCost(characters: number, promptPrice: string): number {
  return roundUsd(characters * Number(promptPrice));
}

/** Bounds of the `realistic` readiness delay, ms (the real record appears a few hundred ms to about 2 s after the call). */
const REALISTIC_READINESS_MS = { min: 500, max: 2000 } as const;

/** How long after its creation the record `id` becomes readable, ms (see `GatewayContext.generationDelay`). */
export function readinessDelay(ctx: GatewayContext, id: string): number {
  if (ctx.generationDelay !== 'realistic') return ctx.generationDelay;
  const { min, max } = REALISTIC_READINESS_MS;
  return min + Math.floor(unitFloat(ctx.seed ^ hashString(id), 1) * (max - min + 1));
}

/** Speech providers stream faster than real time; the record's `generation_time` assumes this factor. */
const PROVIDER_REALTIME_FACTOR = 4;

/**
 * Builds the record of one speech call.
 *
 * - `id`: `gen-tts-<unix seconds>-<20 seeded alphanumerics>` (the real `X-Generation-Id` format).
 * - `tokens_prompt` = `native_tokens_prompt` = input characters; `total_cost` = `usage` = characters × the
 *   model's `pricing.prompt` (USD, per character for speech models; 0 for `:free` variants).
 * - `latency` (ms to the first audio byte): seeded, 150–450 ms. `generation_time` (ms): `latency` plus the audio
 *   duration divided by {@link PROVIDER_REALTIME_FACTOR}.
 * - `created_at`: the clock's time, ISO 8601 with `+00:00`.
 */
export function buildSpeechGeneration(ctx: GatewayContext, call: SpeechCall): GenerationRecord {
  const { serial, suffix } = ctx.ids.next();
  const nowMs = ctx.clock.now();
  const id = `gen-tts-${Math.floor(nowMs / 1000)}-${suffix}`;
  const latency = 150 + Math.floor(unitFloat(ctx.seed, serial * 2) * 300);
  const generationTime = latency + Math.round(call.audioDurationMs / PROVIDER_REALTIME_FACTOR);
  const cost = speechCost(call.characters, call.model.record.pricing.prompt);
  const { headers } = call.request;
  return {
    id,
    request_id: `req-${Math.floor(nowMs / 1000)}-${suffix.slice(0, 12)}`,
    upstream_id: `tts_${suffix.toLowerCase()}`,
    api_type: 'tts',
    app_id: null,
    model: call.model.record.id,
    provider_name: call.model.speech?.provider_name ?? null,
    router: null,
    preset_id: null,
    session_id: call.body.session_id ?? null,
    external_user: call.body.user ?? null,
    user_agent: header(headers, 'user-agent') ?? null,
    http_referer: header(headers, 'http-referer') ?? null,
    origin: header(headers, 'origin') ?? '',
    created_at: isoWithOffset(nowMs),
    data_region: 'global',
    service_tier: null,
    finish_reason: 'stop',
    native_finish_reason: 'stop',
    cancelled: false,
    streamed: true,
    is_byok: false,
    latency,
    generation_time: generationTime,
    moderation_latency: null,
    tokens_prompt: call.characters,
    tokens_completion: 0,
    native_tokens_prompt: call.characters,
    native_tokens_completion: 0,
    native_tokens_completion_images: 0,
    native_tokens_cached: 0,
    native_tokens_reasoning: 0,
    num_fetches: 0,
    num_input_audio_prompt: 0,
    num_media_prompt: 0,
    num_media_completion: 0,
    num_search_results: 0,
    web_search_engine: null,
    total_cost: cost,
    usage: cost,
    upstream_inference_cost: null,
    cache_discount: null,
    provider_responses: null,
    workspace_id: null,
  } as GenerationRecord;
}
