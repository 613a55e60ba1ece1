/**
 * The options only the standalone server has (`port`, `host`, `timeouts` of {@link startServer}), checked before
 * anything is built, so a bad one is an `OptionsError` naming it rather than Node's `ERR_SOCKET_BAD_PORT` or
 * `ERR_OUT_OF_RANGE` from deep inside `listen()`.
 *
 * @module
 */
import * as z from 'zod';
import { OptionsError } from '../core/options.js';
import { describeIssue, formatPath } from '../core/zod-issues.js';

/** A timeout, ms: a whole number ≥ 0 (0 turns it off, as in Node's `http.Server`). */
const Milliseconds = z.int().min(0);

/** What `port`, `host` and `timeouts` may be. */
const ListenOptionsSchema = z.object({
  port: z.int().min(0).max(65_535).optional(),
  host: z.string().optional(),
  timeouts: z
    .strictObject({ headers: Milliseconds, request: Milliseconds, idle: Milliseconds, keepAlive: Milliseconds })
    .partial()
    .optional(),
});

/** The options {@link checkListenOptions} checks. */
export type ListenOptions = z.input<typeof ListenOptionsSchema>;

/**
 * Checks `port` (a whole number 0–65,535; 0 picks a free port), `host` (a string) and `timeouts` (ms, whole numbers
 * ≥ 0, only `headers`, `request`, `idle`, `keepAlive`).
 *
 * @throws {OptionsError} naming the first option at fault, e.g. `port: Too big: expected number to be <=65535` or
 *   `timeouts: headers: Too small: expected number to be >=0`.
 */
export function checkListenOptions(options: ListenOptions): void {
  const { port, host, timeouts } = options;
  const issue = ListenOptionsSchema.safeParse({ port, host, timeouts }).error?.issues[0];
  if (!issue) return;
  const [option, ...inner] = issue.path;
  const where = formatPath(inner);
  throw new OptionsError(option as 'port' | 'host' | 'timeouts', where ? `${where}: ${describeIssue(issue)}` : describeIssue(issue));
}
