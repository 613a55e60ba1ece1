/**
 * The generation record a transcription call leaves behind, as `getGeneration` returns it (`docs/behaviour.md`,
 * "Generation lookup"; `docs/transcription.md`, "Headers and the generation record"): `api_type: "stt"`, the id of
 * `X-Generation-Id`, the call's cost and, for token-billed models, its tokens.
 *
 * @module
 */
import { header } from '../http/request.js';
import type { Clock } from '../base/clock.js';
import { audioRecordOf, type AudioRecordFacts } from './audio-record.js';
import type { ResolvedModel } from '../catalog/catalog.js';
import type { GenerationRecord } from '../formats/fixture-schema.js';
import type { AllocatedId } from '../base/ids.js';
import { unitFloat } from '../base/prng.js';
import type { CoreRequest } from '../base/types.js';

/** What {@link buildTranscriptionGeneration} needs to know about the call. */
export interface TranscriptionCall {
  readonly request: CoreRequest;
  readonly body: { readonly session_id?: string | undefined; readonly user?: string | undefined };
  readonly model: ResolvedModel;
  /** The audio's length, seconds. */
  readonly seconds: number;
  /** USD. */
  readonly cost: number;
  /** Audio input tokens and text output tokens, for token-billed models; else 0. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The `provider_name` of the endpoint the request's data policy routed to; default: the model's transcription provider. */
  readonly providerName?: string | undefined;
}

/** Transcription providers work faster than real time; the record's `generation_time` assumes this factor. */
const PROVIDER_REALTIME_FACTOR = 20;

/**
 * The record of one transcription call, kept as its facts (`AudioRecordFacts` of `audio-record.ts`) and expanded on
 * lookup (`CompactGeneration` of the store).
 */
export class TranscriptionGeneration {
  /** @param facts the call's facts: `id` is `gen-stt-<unix seconds>-<20 seeded alphanumerics>`, `apiType` `stt`. */
  constructor(readonly facts: AudioRecordFacts) {}

  /** The record's id. */
  get id(): string {
    return this.facts.id;
  }

  /** The clock's time of the call, epoch ms. */
  get createdMs(): number {
    return this.facts.createdMs;
  }

  /** The whole record, as `getGeneration` answers it (a new object each call). */
  record(): GenerationRecord {
    return audioRecordOf(this.facts);
  }
}

/**
 * Builds the record of one transcription call.
 *
 * - `id`: `gen-stt-<unix seconds>-<the suffix of id>` (the speech operation's `gen-tts-` form, with the record's
 *   `api_type`: the docs show no transcription id, a simulator choice).
 * - `latency` = `generation_time` (ms): seeded 200–500 ms plus the audio's length ÷ 20.
 * - `tokens_prompt`/`tokens_completion`: the audio and text tokens of a token-billed model, else 0; `total_cost` =
 *   `usage` = the answer's `usage.cost`.
 */
export function buildTranscriptionGeneration(clock: Clock, seed: number, call: TranscriptionCall, id: AllocatedId): TranscriptionGeneration {
  const nowMs = clock.now();
  const latency = 200 + Math.floor(unitFloat(seed, id.serial * 2 + 1) * 300) + Math.round((call.seconds * 1000) / PROVIDER_REALTIME_FACTOR);
  const { headers } = call.request;
  return new TranscriptionGeneration({
    id: `gen-stt-${Math.floor(nowMs / 1000)}-${id.suffix}`,
    apiType: 'stt',
    createdMs: nowMs,
    latency,
    generationTime: latency,
    streamed: false,
    tokensPrompt: call.inputTokens,
    tokensCompletion: call.outputTokens,
    audioInputs: 1,
    cost: call.cost,
    model: call.model.record.id,
    providerName: call.providerName ?? call.model.transcription?.provider_name ?? null,
    sessionId: call.body.session_id ?? null,
    user: call.body.user ?? null,
    userAgent: header(headers, 'user-agent') ?? null,
    referer: header(headers, 'http-referer') ?? null,
    origin: header(headers, 'origin') ?? '',
  });
}
