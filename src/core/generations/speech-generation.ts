/**
 * The generation record a speech call leaves behind, as `getGeneration` returns it (`docs/behaviour.md`,
 * "Generation lookup").
 *
 * @module
 */
import { header } from '../http/request.js';
import type { Clock } from '../base/clock.js';
import { audioRecordOf } from './audio-record.js';
import type { ResolvedModel } from '../catalog/catalog.js';
import type { GenerationRecord } from '../formats/fixture-schema.js';
import type { AllocatedId } from '../base/ids.js';
import { hashString, unitFloat } from '../base/prng.js';
import type { CoreRequest } from '../base/types.js';
import { roundUsd } from '../base/usd.js';

/** What {@link buildSpeechGeneration} needs to know about the call. */
export interface SpeechCall {
  request: CoreRequest;
  body: { model: string; session_id?: string | undefined; user?: string | undefined };
  model: ResolvedModel;
  /** Input length in Unicode code points. */
  characters: number;
  /** Duration of the synthesized audio, ms. */
  audioDurationMs: number;
  /** The `provider_name` of the endpoint the request's data policy routed to; default: the model's speech provider. */
  providerName?: string | undefined;
}

/** Cost of a speech call in USD: characters × the model's `pricing.prompt` (per character), rounded to 1e-12. */
export function speechCost(characters: number, promptPrice: string): number {
  return roundUsd(characters * Number(promptPrice));
}

/** Bounds of the `realistic` readiness delay, ms (the real record appears a few hundred ms to about 2 s after the call). */
const REALISTIC_READINESS_MS = { min: 500, max: 2000 } as const;

/** What a speech call's generation record is drawn from: the gateway's clock and seed. */
export interface GenerationSource {
  readonly clock: Clock;
  /** The gateway's seed (option `seed`). */
  readonly seed: number;
  /** ms from a record's creation until it is readable, or `'realistic'` (option `generationDelayMs`). */
  readonly generationDelay: number | 'realistic';
}

/** How long after its creation the record `id` becomes readable, ms (option `generationDelayMs`). */
export function readinessDelay(ctx: Pick<GenerationSource, 'seed' | 'generationDelay'>, id: string): number {
  if (ctx.generationDelay !== 'realistic') return ctx.generationDelay;
  const { min, max } = REALISTIC_READINESS_MS;
  return min + Math.floor(unitFloat(ctx.seed ^ hashString(id), 1) * (max - min + 1));
}

/** Speech providers stream faster than real time; the record's `generation_time` assumes this factor. */
const PROVIDER_REALTIME_FACTOR = 4;

/**
 * The record of one speech call, kept as the few facts that differ between calls (about 250 bytes of heap with its
 * id, against about 930 for the record's JSON) and expanded to the whole record when it is looked up: the
 * generation store holds up to 10,000 of these (`src/core/generations/known-generations.ts`).
 */
export class SpeechGeneration {
  /**
   * @param id `gen-tts-<unix seconds>-<20 seeded alphanumerics>`.
   * @param createdMs the clock's time of the call, epoch ms.
   * @param latency ms to the first audio byte.
   * @param generationTime ms for the whole call.
   * @param characters input length in code points.
   * @param cost USD.
   * @param model the model's `id`.
   * @param providerName the speech provider's `provider_name`, or null.
   * @param sessionId the body's `session_id`, or null.
   * @param user the body's `user`, or null.
   * @param userAgent the request's `User-Agent`, or null.
   * @param referer the request's `HTTP-Referer`, or null.
   * @param origin the request's `Origin`, or `''`.
   */
  constructor(
    readonly id: string,
    readonly createdMs: number,
    readonly latency: number,
    readonly generationTime: number,
    readonly characters: number,
    readonly cost: number,
    readonly model: string,
    readonly providerName: string | null,
    readonly sessionId: string | null,
    readonly user: string | null,
    readonly userAgent: string | null,
    readonly referer: string | null,
    readonly origin: string,
  ) {}

  /** The whole record, as `getGeneration` answers it (a new object each call). */
  record(): GenerationRecord {
    return audioRecordOf({
      id: this.id,
      apiType: 'tts',
      createdMs: this.createdMs,
      latency: this.latency,
      generationTime: this.generationTime,
      streamed: true,
      tokensPrompt: this.characters,
      tokensCompletion: 0,
      audioInputs: 0,
      cost: this.cost,
      model: this.model,
      providerName: this.providerName,
      sessionId: this.sessionId,
      user: this.user,
      userAgent: this.userAgent,
      referer: this.referer,
      origin: this.origin,
    });
  }
}

/**
 * Builds the record of one speech call (expanded by {@link SpeechGeneration.record}).
 *
 * - `id`: `gen-tts-<unix seconds>-<the suffix of id>` (the real `X-Generation-Id` format; `id` is `generationIdOf`
 *   of the gateway's seed and the store's next serial).
 * - `tokens_prompt` = `native_tokens_prompt` = input characters; `total_cost` = `usage` = characters × the
 *   model's `pricing.prompt` (USD, per character for speech models; 0 for `:free` variants).
 * - `latency` (ms to the first audio byte): seeded, 150–450 ms. `generation_time` (ms): `latency` plus the audio
 *   duration divided by {@link PROVIDER_REALTIME_FACTOR}.
 * - `created_at`: the clock's time, ISO 8601 with `+00:00`.
 */
export function buildSpeechGeneration(ctx: Pick<GenerationSource, 'clock' | 'seed'>, call: SpeechCall, id: AllocatedId): SpeechGeneration {
  const { serial, suffix } = id;
  const nowMs = ctx.clock.now();
  const latency = 150 + Math.floor(unitFloat(ctx.seed, serial * 2) * 300);
  const { headers } = call.request;
  return new SpeechGeneration(
    `gen-tts-${Math.floor(nowMs / 1000)}-${suffix}`,
    nowMs,
    latency,
    latency + Math.round(call.audioDurationMs / PROVIDER_REALTIME_FACTOR),
    call.characters,
    speechCost(call.characters, call.model.record.pricing.prompt),
    call.model.record.id,
    call.providerName ?? call.model.speech?.provider_name ?? null,
    call.body.session_id ?? null,
    call.body.user ?? null,
    header(headers, 'user-agent') ?? null,
    header(headers, 'http-referer') ?? null,
    header(headers, 'origin') ?? '',
  );
}
