/**
 * The generation record a transcription call leaves behind, as `getGeneration` returns it (`docs/behaviour.md`,
 * "Generation lookup"; `docs/transcription.md`, "Headers and the generation record"): `api_type: "stt"`, the id of
 * `X-Generation-Id`, the call's cost and, for token-billed models, its tokens.
 *
 * @module
 */
import { header } from '../http/request.js';
import type { Clock } from '../base/clock.js';
import { audioRecordOf } from './audio-record.js';
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
}

/** Transcription providers work faster than real time; the record's `generation_time` assumes this factor. */
const PROVIDER_REALTIME_FACTOR = 20;

/** The record of one transcription call, kept as its facts and expanded on lookup (`CompactGeneration` of the store). */
export class TranscriptionGeneration {
  /**
   * @param id `gen-stt-<unix seconds>-<20 seeded alphanumerics>`.
   * @param createdMs the clock's time of the call, epoch ms.
   * @param latency ms until the answer (the whole transcript comes at once).
   * @param call the call's facts.
   */
  constructor(
    readonly id: string,
    readonly createdMs: number,
    readonly latency: number,
    readonly call: Omit<TranscriptionCall, 'request' | 'body' | 'model'> & {
      readonly model: string;
      readonly providerName: string | null;
      readonly sessionId: string | null;
      readonly user: string | null;
      readonly userAgent: string | null;
      readonly referer: string | null;
      readonly origin: string;
    },
  ) {}

  /** The whole record, as `getGeneration` answers it (a new object each call). */
  record(): GenerationRecord {
    const { call } = this;
    return audioRecordOf({
      id: this.id,
      apiType: 'stt',
      createdMs: this.createdMs,
      latency: this.latency,
      generationTime: this.latency,
      streamed: false,
      tokensPrompt: call.inputTokens,
      tokensCompletion: call.outputTokens,
      audioInputs: 1,
      cost: call.cost,
      model: call.model,
      providerName: call.providerName,
      sessionId: call.sessionId,
      user: call.user,
      userAgent: call.userAgent,
      referer: call.referer,
      origin: call.origin,
    });
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
  return new TranscriptionGeneration(`gen-stt-${Math.floor(nowMs / 1000)}-${id.suffix}`, nowMs, latency, {
    seconds: call.seconds,
    cost: call.cost,
    inputTokens: call.inputTokens,
    outputTokens: call.outputTokens,
    model: call.model.record.id,
    providerName: call.model.transcription?.provider_name ?? null,
    sessionId: call.body.session_id ?? null,
    user: call.body.user ?? null,
    userAgent: header(headers, 'user-agent') ?? null,
    referer: header(headers, 'http-referer') ?? null,
    origin: header(headers, 'origin') ?? '',
  });
}
