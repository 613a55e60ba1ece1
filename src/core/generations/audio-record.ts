/**
 * The generation record of an audio call, speech or transcription, as `getGeneration` returns it (`docs/behaviour.md`,
 * "Generation lookup"): the one place its fields are written, from the few facts that differ between calls.
 *
 * @module
 */
import { isoWithOffset } from '../base/clock.js';
import type { GenerationRecord } from '../formats/fixture-schema.js';

/** The facts of one audio call's record; everything else in the record is the same for every such call. */
export interface AudioRecordFacts {
  /** `gen-<tts|stt>-<unix seconds>-<20 seeded alphanumerics>`. */
  readonly id: string;
  /** `tts` (speech) or `stt` (transcription): the record's `api_type`, and its `upstream_id`'s prefix. */
  readonly apiType: 'tts' | 'stt';
  /** The clock's time of the call, epoch ms. */
  readonly createdMs: number;
  /** ms to the first byte of the answer, and for the whole call. */
  readonly latency: number;
  readonly generationTime: number;
  /** Whether the answer was streamed (speech) or sent whole (transcription). */
  readonly streamed: boolean;
  /** `tokens_prompt` and `native_tokens_prompt`, `tokens_completion` and `native_tokens_completion`. */
  readonly tokensPrompt: number;
  readonly tokensCompletion: number;
  /** Audio inputs of the request: `num_input_audio_prompt` and `num_media_prompt`. */
  readonly audioInputs: number;
  /** USD: `total_cost` and `usage`. */
  readonly cost: number;
  /** The model's `id`, its provider's `provider_name` (or null). */
  readonly model: string;
  readonly providerName: string | null;
  /** The body's `session_id` and `user`, the request's `User-Agent` and `HTTP-Referer` (each or null), its `Origin` (or `''`). */
  readonly sessionId: string | null;
  readonly user: string | null;
  readonly userAgent: string | null;
  readonly referer: string | null;
  readonly origin: string;
}

/** The whole record of an audio call (a new object each call). */
export function audioRecordOf(facts: AudioRecordFacts): GenerationRecord {
  const suffix = facts.id.slice(facts.id.lastIndexOf('-') + 1);
  const seconds = Math.floor(facts.createdMs / 1000);
  return {
    id: facts.id,
    request_id: `req-${seconds}-${suffix.slice(0, 12)}`,
    upstream_id: `${facts.apiType}_${suffix.toLowerCase()}`,
    api_type: facts.apiType,
    app_id: null,
    model: facts.model,
    provider_name: facts.providerName,
    router: null,
    preset_id: null,
    session_id: facts.sessionId,
    external_user: facts.user,
    user_agent: facts.userAgent,
    http_referer: facts.referer,
    origin: facts.origin,
    created_at: isoWithOffset(facts.createdMs),
    data_region: 'global',
    service_tier: null,
    finish_reason: 'stop',
    native_finish_reason: 'stop',
    cancelled: false,
    streamed: facts.streamed,
    is_byok: false,
    latency: facts.latency,
    generation_time: facts.generationTime,
    moderation_latency: null,
    tokens_prompt: facts.tokensPrompt,
    tokens_completion: facts.tokensCompletion,
    native_tokens_prompt: facts.tokensPrompt,
    native_tokens_completion: facts.tokensCompletion,
    native_tokens_completion_images: 0,
    native_tokens_cached: 0,
    native_tokens_reasoning: 0,
    num_fetches: 0,
    num_input_audio_prompt: facts.audioInputs,
    num_media_prompt: facts.audioInputs,
    num_media_completion: 0,
    num_search_results: 0,
    web_search_engine: null,
    total_cost: facts.cost,
    usage: facts.cost,
    upstream_inference_cost: null,
    cache_discount: null,
    provider_responses: null,
    workspace_id: null,
  } as GenerationRecord;
}
