/**
 * The options only the standalone server has (`port`, `host`, `timeouts` of {@link startServer}), checked before
 * anything is built, so a bad one is an `OptionsError` naming it rather than Node's `ERR_SOCKET_BAD_PORT` or
 * `ERR_OUT_OF_RANGE` from deep inside `listen()`, or a timer that silently fires after 1 ms.
 *
 * @module
 */
import * as z from 'zod';
import { parseOptions } from '../core/gateway/options.js';
import { SERVER_TIMEOUTS } from './timeouts.js';

/** The longest timeout Node's timers keep, ms (2^31 − 1, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** A timeout, ms: a whole number from 0 (off, as in Node's `http.Server`) to {@link MAX_TIMEOUT_MS}. */
const Milliseconds = z.lazy(() => z.int().min(0).max(MAX_TIMEOUT_MS));

/** What `port`, `host` and `timeouts` may be (built at its first use, as the core's schemas are). */
const ListenOptionsSchema = z.lazy(() =>
  z.object({
    // A string of digits too, as `listen()` takes it (`port: process.env.PORT` from JavaScript).
    port: z.preprocess((value) => (typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : value), z.int().min(0).max(65_535)).optional(),
    host: z.string().optional(),
    timeouts: z
      .strictObject({ headers: Milliseconds, request: Milliseconds, idle: Milliseconds, keepAlive: Milliseconds })
      .partial()
      .superRefine((given, ctx) => {
        const { headers, request } = { ...SERVER_TIMEOUTS, ...given };
        if (request === 0 || headers <= request) return;
        const from = given.request === undefined ? 'the default' : 'given';
        ctx.addIssue({
          code: 'custom',
          input: given,
          message: `headers (${headers} ms) must be at most request (${request} ms, ${from}), the time for the whole request, unless request is 0`,
        });
      })
      .optional(),
  }),
);

/** The options {@link checkListenOptions} checks. */
export type ListenOptions = z.input<typeof ListenOptionsSchema>;

/** The same options, checked: `port` a number. */
export type CheckedListenOptions = z.output<typeof ListenOptionsSchema>;

/**
 * Checks `port` (a whole number 0–65,535, or a string of its digits; 0 picks a free port), `host` (a string) and
 * `timeouts` (only `headers`, `request`, `idle`, `keepAlive`; whole ms from 0 to {@link MAX_TIMEOUT_MS}; `headers`
 * at most `request`, defaults from `SERVER_TIMEOUTS` in `src/server/timeouts.ts`, unless `request` is 0, as
 * `http.createServer` demands).
 *
 * @returns the options, `port` as a number (when given).
 * @throws {OptionsError} naming the first option at fault, e.g. `port: Too big: expected number to be <=65535` or
 *   `timeouts: headers: Too small: expected number to be >=0`.
 */
export function checkListenOptions(options: ListenOptions): CheckedListenOptions {
  const { port, host, timeouts } = options;
  return parseOptions(ListenOptionsSchema, { port, host, timeouts });
}
