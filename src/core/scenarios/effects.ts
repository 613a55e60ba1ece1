/**
 * Turning an applied rule into a response: error envelopes with the gateway's defaults, raw bodies, resets,
 * delays, and truncated or dribbled audio.
 *
 * @module
 */
import { ChunkedBody } from '../body.js';
import { errorResponse } from '../errors.js';
import { userIdFor } from '../ids.js';
import { hash32 } from '../prng.js';
import { DEFAULT_RETRY_AFTER_S, FREE_MODEL_LIMIT, rateLimitedInit } from '../rate-limit.js';
import { StreamCut, type CoreBody, type CoreResponse } from '../types.js';
import type { AppliedRule } from './engine.js';
import type { Rule } from './schema.js';

/** The delay of `rule` for this application, ms: fixed, or drawn in `[min_ms, max_ms]` from the rule's seed. */
export function delayOf(rule: Rule, draw: number): number {
  const delay = rule.delay;
  if (!delay) return 0;
  if ('ms' in delay) return delay.ms;
  return delay.min_ms + (hash32(draw, 1) % (delay.max_ms - delay.min_ms + 1));
}

/**
 * The response of an error, raw or reset rule, or `undefined` when the rule lets the request through
 * (possibly with a delay or audio effects, applied by {@link withAudioEffects}).
 *
 * - 429: `X-RateLimit-*` headers and `error.metadata.headers` are filled in by {@link rateLimitedInit} (the
 *   `:free` limit of 20, remaining 0, reset = now + `Retry-After`), as the gateway's own 429s carry them; the
 *   rule's headers win.
 * - 402: `user_id` defaults to the key's (from the keys file, or derived from the key).
 */
export function ruleResponse(applied: AppliedRule, nowMs: number, session: string, accountUserId?: string): CoreResponse | undefined {
  const { rule } = applied;
  if (rule.reset) return { status: 0, headers: {}, body: null, reset: true };
  if (rule.raw) {
    return { status: rule.raw.status, headers: { 'Content-Type': rule.raw.content_type, ...rule.raw.headers }, body: rule.raw.body };
  }
  if (!rule.error) return undefined;
  const { status, message, user_id, headers = {}, metadata } = rule.error;
  const userId = user_id ?? (status === 402 ? (accountUserId ?? userIdFor(session)) : undefined);
  if (status === 429) {
    const retryAfter = Number(headers['Retry-After'] ?? headers['retry-after'] ?? DEFAULT_RETRY_AFTER_S);
    const resetMs = nowMs + (Number.isFinite(retryAfter) ? retryAfter : DEFAULT_RETRY_AFTER_S) * 1000;
    return errorResponse(status, rateLimitedInit({ limit: FREE_MODEL_LIMIT.requests, resetMs, message, metadata, headers, userId }));
  }
  return errorResponse(status, {
    ...(message === undefined ? {} : { message }),
    ...(metadata === undefined ? {} : { metadata }),
    ...(userId === undefined ? {} : { userId }),
    headers,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Interval between dribbled chunks when pacing at real time, ms. */
const REALTIME_TICK_MS = 100;

async function* paced(bytes: Uint8Array, chunkCount: number, intervalMs: number, cutAt: number | undefined): AsyncGenerator<Uint8Array> {
  const end = cutAt ?? bytes.byteLength;
  const size = Math.max(1, Math.ceil(bytes.byteLength / chunkCount));
  for (let offset = 0, i = 0; offset < end; offset += size, i++) {
    if (i > 0 && intervalMs > 0) await sleep(intervalMs);
    yield bytes.subarray(offset, Math.min(offset + size, end));
  }
  if (cutAt !== undefined) throw new StreamCut(`audio cut after ${cutAt} of ${bytes.byteLength} bytes`);
}

/**
 * Applies `audio` effects to a successful audio body.
 *
 * - `truncate: f`: sends the first `floor(f × bytes)` bytes, then cuts the connection ({@link StreamCut}).
 * - `dribble: {chunks, over_ms}`: `chunks` chunks, evenly spaced over `over_ms`.
 * - `dribble: {realtime: k}`: one chunk every 100 ms, sized so the audio arrives at k × real time.
 */
export function withAudioEffects(rule: Rule, body: CoreBody | null): CoreBody | null {
  const audio = rule.audio;
  if (!audio || !(body instanceof ChunkedBody)) return body;
  const bytes = body.bytes;
  const cutAt = audio.truncate === undefined ? undefined : Math.floor(bytes.byteLength * audio.truncate);
  const dribble = audio.dribble;
  if (!dribble) return paced(bytes, Math.ceil(bytes.byteLength / body.chunkSize), 0, cutAt);
  if ('chunks' in dribble) {
    return paced(bytes, dribble.chunks, dribble.chunks > 1 ? dribble.over_ms / (dribble.chunks - 1) : 0, cutAt);
  }
  const totalMs = body.durationMs / dribble.realtime;
  const chunks = Math.max(1, Math.ceil(totalMs / REALTIME_TICK_MS));
  return paced(bytes, chunks, REALTIME_TICK_MS, cutAt);
}
