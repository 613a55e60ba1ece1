/**
 * The standalone server's default timeouts (option `timeouts` of `startServer`, documented at `Options.timeouts`
 * in `src/core/config/options.ts`, checked by `listen-options.ts`).
 *
 * @module
 */
import type { ServerTimeouts } from '../core/config/options.js';

export type { ServerTimeouts } from '../core/config/options.js';

/**
 * Timeouts of the standalone server, ms. They bound what a stalled or malicious client can hold: a client that
 * sends its headers slowly is cut after `headers`, one that stalls while sending its body after `request`, an
 * idle socket (including one that stops reading a streamed response) after `idle`.
 */
export const SERVER_TIMEOUTS = {
  /** Time to receive the request headers. */
  headers: 10_000,
  /** Time to receive the whole request (headers and body). */
  request: 30_000,
  /** Socket inactivity before it is closed (no bytes in or out). */
  idle: 60_000,
  /** How long an idle keep-alive connection is kept open. */
  keepAlive: 5_000,
} as const satisfies ServerTimeouts;
