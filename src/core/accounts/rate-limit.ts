/**
 * Rate limits, as the gateway enforces them: fixed windows counted per scope, and the 429 that answers a request
 * past the limit, with `Retry-After` and the `X-RateLimit-*` headers, also echoed in `error.metadata.headers`
 * (`docs/behaviour.md`, "Rate limits"; the gateway's docs page "API Rate Limits",
 * https://openrouter.ai/docs/api-reference/limits).
 *
 * Both kinds of 429 the simulator gives come from here: a key's own limit and the `:free` variants' limit
 * ({@link windowRefusal}, counted by the gateway's store), and a scenario rule's `error: {status: 429}` ({@link rateLimitedInit}).
 *
 * @module
 */
import * as z from 'zod';
import { GatewayError, type GatewayErrorInit } from '../base/error-envelope.js';

/** A rate limit: at most `requests` requests per `interval_s` seconds (a fixed window from the first request). */
export const RateLimitSchema = z.lazy(() =>
  z.strictObject({
    requests: z.int().min(1).describe('Requests allowed per window.'),
    interval_s: z.number().positive().describe('Window length, seconds.'),
  }),
);

/** A rate limit: `requests` per `interval_s` seconds. */
export type RateLimit = z.output<typeof RateLimitSchema>;

/**
 * The `:free` variants' limit on the real gateway: 20 requests a minute. The simulator counts it per key and model
 * (the gateway counts it per account; `docs/behaviour.md`, "Rate limits").
 */
export const FREE_MODEL_LIMIT: RateLimit = { requests: 20, interval_s: 60 };

/** `Retry-After` assumed for the `X-RateLimit-Reset` of a scenario 429 that sets none, seconds. */
export const DEFAULT_RETRY_AFTER_S = 60;

/** The three rate-limit header names, in the order the gateway sends them. */
const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/**
 * The three rate-limit headers of a gateway 429: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (unix ms, rounded up, as a string).
 */
function rateLimitHeaders(limit: number, remaining: number, resetMs: number): Record<string, string> {
  return { [LIMIT_HEADERS[0]]: String(limit), [LIMIT_HEADERS[1]]: String(remaining), [LIMIT_HEADERS[2]]: String(Math.ceil(resetMs)) };
}

/** What a 429 is made of; see {@link rateLimitedInit}. */
export interface RateLimited {
  /** `X-RateLimit-Limit`: requests allowed per window. */
  limit: number;
  /** When the window resets, epoch ms (`X-RateLimit-Reset`). */
  resetMs: number;
  /** `Retry-After`, seconds; omitted sends none. */
  retryAfterS?: number | undefined;
  /** `error.message`; default `Rate limit exceeded`. */
  message?: string | undefined;
  /** Merged over `{ headers: <the three limit headers> }`; `null` sends no metadata. */
  metadata?: Record<string, unknown> | null | undefined;
  /** Extra response headers; they win over the computed ones (and `metadata.headers` follows them). */
  headers?: Record<string, string> | undefined;
  /** Top-level `user_id`. */
  userId?: string | undefined;
}

/**
 * The error parts of a gateway 429: the response headers (`Retry-After` when given, the three `X-RateLimit-*`
 * with `Remaining: 0`, then `headers` over them) and `error.metadata.headers` holding the same three values.
 *
 * @example
 * throw new GatewayError(429, rateLimitedInit({ limit: 20, resetMs: now + 60_000, retryAfterS: 60 }));
 */
export function rateLimitedInit(init: RateLimited): GatewayErrorInit {
  const limits = rateLimitHeaders(init.limit, 0, init.resetMs);
  const headers: Record<string, string> = { ...(init.retryAfterS === undefined ? {} : { 'Retry-After': String(init.retryAfterS) }), ...limits, ...init.headers };
  const echoed = Object.fromEntries(LIMIT_HEADERS.map((name) => [name, headers[name] ?? limits[name]!]));
  return {
    ...(init.message === undefined ? {} : { message: init.message }),
    metadata: init.metadata === null ? null : { headers: echoed, ...init.metadata },
    ...(init.userId === undefined ? {} : { userId: init.userId }),
    headers,
  };
}

/**
 * The 429 of a request refused by a fixed window (a store's `countWindow`: a key's own limit, or a `:free`
 * variant's): `Rate limit exceeded` with `Retry-After` (whole seconds until the window resets at `resetMs`, at
 * least 1), `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0`, `X-RateLimit-Reset` (unix ms) and the same three in
 * `error.metadata.headers`.
 *
 * @param nowMs the simulator's time of the request, epoch ms.
 */
export function windowRefusal(limit: RateLimit, resetMs: number, nowMs: number): GatewayError {
  return new GatewayError(429, rateLimitedInit({ limit: limit.requests, resetMs, retryAfterS: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)), message: 'Rate limit exceeded' }));
}
