/**
 * The admin API's clock routes: `GET /__mock/clock` and `POST /__mock/clock` (move a clock that stays at whole ms
 * within years 1970–9999, `clock.ts`).
 *
 * @module
 */
import * as z from 'zod';
import { advanceProblem, clockTimeProblem, mostAdvanceMs, parseIsoTime } from '../base/clock.js';
import { GatewayError, jsonResponse } from '../base/error-envelope.js';
import type { Gateway } from '../gateway/gateway.js';
import { readJsonBody } from '../http/request.js';
import type { CoreRequest, CoreResponse } from '../base/types.js';
import { parseOrThrow } from '../http/validate-request.js';
import { clockStateOf } from '../journal/gateway-events.js';
import type { ClockState } from './wire.js';

/**
 * `GET /__mock/clock` (and the answer to a move): 200 {@link ClockState}, `{now: ISO 8601 with offset, now_ms,
 * frozen}`, the `clock` event's data too.
 */
export function clockState(gateway: Gateway): CoreResponse {
  return jsonResponse(200, clockStateOf(gateway.clock) satisfies ClockState);
}

/** Body of `POST /__mock/clock`: exactly one of `advance_ms` (whole ms ≥ 0) and `now` (an ISO 8601 time, 1970–9999). */
const ClockBodySchema = z.lazy(() =>
  z
    .strictObject({
      advance_ms: z
        .number({ error: (i) => `expected a whole number of ms ≥ 0, got ${typeof i.input === 'number' ? String(i.input) : JSON.stringify(i.input)}` })
        .optional(),
      now: z
        .string({ error: (i) => `must be an ISO 8601 time string, got ${JSON.stringify(i.input)}` })
        .refine((value) => parseIsoTime(value) !== undefined, { error: (i) => `expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got ${JSON.stringify(i.input)}` })
        .optional(),
    }, { error: 'must be a JSON object: {"advance_ms": <ms ≥ 0>} or {"now": "<ISO 8601 time>"}' })
    .refine((b) => (b.advance_ms === undefined) !== (b.now === undefined), {
      error: 'expected {"advance_ms": <ms ≥ 0>} or {"now": "<ISO 8601 time>"}',
    }),
);

/** The fields of the body of `POST /__mock/clock`. */
const CLOCK_FIELDS: ReadonlySet<string> = new Set(['advance_ms', 'now']);

/**
 * A 400 naming the first field of `body` (a JSON object) that `POST /__mock/clock` does not take, such as
 * `offsetMs` (how a shared store keeps the clock, not a field of the request), with the fields and ranges it takes.
 */
function unknownField(body: unknown, now: number): GatewayError | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const field = Object.keys(body).find((name) => !CLOCK_FIELDS.has(name));
  if (field === undefined) return undefined;
  const named = /^[A-Za-z_$][\w$]{0,63}$/.test(field) ? field : JSON.stringify(field.slice(0, 64));
  return new GatewayError(400, {
    message: `${named}: not a field of POST /__mock/clock, which takes {"advance_ms": <whole ms from 0 to ${mostAdvanceMs(now)}>} or {"now": "<ISO 8601 time within years 1970–9999>"}`,
  });
}

/**
 * `POST /__mock/clock`: advances or sets the clock, which stays at whole ms within years 1970–9999 (`clock.ts`).
 *
 * @throws {GatewayError} 400 naming the field (`advance_ms` or `now`) and the range for a move out of it, or a field
 *   it does not take (`offsetMs: not a field of POST /__mock/clock, which takes ...`); the clock does not move.
 */
export function moveClock(gateway: Gateway, request: CoreRequest): CoreResponse {
  const json = readJsonBody(request);
  const clock = gateway.clock;
  const unknown = unknownField(json, clock.now());
  if (unknown) throw unknown;
  const body = parseOrThrow(ClockBodySchema, json);
  if (body.advance_ms !== undefined) {
    const problem = advanceProblem(clock.now(), body.advance_ms);
    if (problem) throw new GatewayError(400, { message: `advance_ms: ${problem}` });
    clock.advance(body.advance_ms);
  } else {
    const ms = parseIsoTime(body.now!)!;
    const problem = clockTimeProblem(ms, JSON.stringify(body.now));
    if (problem) throw new GatewayError(400, { message: `now: ${problem}` });
    clock.set(ms);
  }
  return clockState(gateway);
}
