/**
 * The standalone server's default timeouts (option `timeouts` of `startServer`, documented at `Options.timeouts`
 * in `src/core/gateway/options.ts`, checked by `listen-options.ts`).
 *
 * @module
 */
import type { ServerTimeouts } from '../core/gateway/options.js';

export type { ServerTimeouts } from '../core/gateway/options.js';

/**
 * The default timeouts of the standalone server, ms; what each bounds is documented once, at {@link ServerTimeouts}
 * (`src/core/gateway/options.ts`).
 */
export const SERVER_TIMEOUTS = {
  headers: 10_000,
  request: 30_000,
  idle: 60_000,
  keepAlive: 5_000,
} as const satisfies ServerTimeouts;
