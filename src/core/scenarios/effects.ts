/**
 * Turning an applied rule into a response: error envelopes with the gateway's defaults, raw bodies, resets,
 * delays, and truncated or dribbled audio.
 *
 * @module
 */
import { DEFAULT_CHUNK_BYTES, isSized, isStreamed, type SizedBody } from '../http/body.js';
import { errorResponse } from '../base/error-envelope.js';
import { userIdFor } from '../base/ids.js';
import { hash32 } from '../base/prng.js';
import { DEFAULT_RETRY_AFTER_S, FREE_MODEL_LIMIT, rateLimitedInit } from '../accounts/rate-limit.js';
import { StreamCut, type CoreBody, type CoreResponse } from '../base/types.js';
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

/**
 * Re-chunks `source` (whose whole length is `total` bytes) into `chunkCount` chunks of `ceil(total / chunkCount)`
 * bytes, waiting `intervalMs` before every chunk but the first; with `cutAt`, stops after exactly that many bytes
 * (and stops the source, which stops its render) and throws {@link StreamCut}.
 */
async function* paced(source: SizedBody, chunkCount: number, intervalMs: number, cutAt: number | undefined): AsyncGenerator<Uint8Array> {
  const total = source.byteLength;
  const end = cutAt ?? total;
  const size = Math.max(1, Math.ceil(total / chunkCount));
  const iterator = source[Symbol.asyncIterator]();
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let sent = 0;
  try {
    while (sent < end) {
      const want = Math.min(size, end - sent);
      while (pendingBytes < want) {
        const next = await iterator.next();
        if (next.done) break;
        pending.push(next.value);
        pendingBytes += next.value.byteLength;
      }
      if (pendingBytes === 0) break;
      const chunk = take(pending, Math.min(want, pendingBytes));
      pendingBytes -= chunk.byteLength;
      if (sent > 0 && intervalMs > 0) await sleep(intervalMs);
      sent += chunk.byteLength;
      yield chunk;
    }
  } finally {
    await iterator.return?.();
  }
  if (cutAt !== undefined) throw new StreamCut(`audio cut after ${cutAt} of ${total} bytes`);
}

/**
 * Removes the first `count` bytes from the queue `pieces` (which holds at least that many) and returns them: a view
 * when they lie in the first piece, else one copy of exactly `count` bytes (each byte is copied at most once).
 */
function take(pieces: Uint8Array[], count: number): Uint8Array {
  const head = pieces[0]!;
  if (head.byteLength >= count) {
    if (head.byteLength === count) pieces.shift();
    else pieces[0] = head.subarray(count);
    return head.subarray(0, count);
  }
  const out = new Uint8Array(count);
  let filled = 0;
  while (filled < count) {
    const piece = pieces[0]!;
    const n = Math.min(piece.byteLength, count - filled);
    out.set(piece.subarray(0, n), filled);
    filled += n;
    if (n === piece.byteLength) pieces.shift();
    else pieces[0] = piece.subarray(n);
  }
  return out;
}

/**
 * Applies `audio` effects to a successful audio body, while it is still being rendered when its final length and
 * duration are known up front ({@link SizedBody}: tones); speech with words, whose length is known only once said,
 * is read whole first (`sized()`), then sent the same way.
 *
 * - `truncate: f`: sends the first `floor(f × bytes)` bytes of the final length, then cuts the connection
 *   ({@link StreamCut}).
 * - `dribble: {chunks, over_ms}`: `chunks` chunks, evenly spaced over `over_ms`.
 * - `dribble: {realtime: k}`: one chunk every 100 ms, sized so the audio arrives at k × real time.
 */
export function withAudioEffects(rule: Rule, body: CoreBody | null): CoreBody | null {
  const audio = rule.audio;
  if (!audio) return body;
  if (isSized(body)) return sizedEffects(audio, body);
  if (!isStreamed(body) || !body.sized) return body;
  const whole = body.sized.bind(body);
  return (async function* () {
    yield* sizedEffects(audio, await whole());
  })();
}

function sizedEffects(audio: NonNullable<Rule['audio']>, body: SizedBody): AsyncGenerator<Uint8Array> {
  const total = body.byteLength;
  const cutAt = audio.truncate === undefined ? undefined : Math.floor(total * audio.truncate);
  const dribble = audio.dribble;
  if (!dribble) return paced(body, Math.ceil(total / DEFAULT_CHUNK_BYTES), 0, cutAt);
  if ('chunks' in dribble) {
    return paced(body, dribble.chunks, dribble.chunks > 1 ? dribble.over_ms / (dribble.chunks - 1) : 0, cutAt);
  }
  const totalMs = body.durationMs / dribble.realtime;
  const chunks = Math.max(1, Math.ceil(totalMs / REALTIME_TICK_MS));
  return paced(body, chunks, REALTIME_TICK_MS, cutAt);
}
