/**
 * The options of `startServer`: every option of mockrouter (`Options` of `src/core/config/options.ts`, where each
 * is documented once) and the request logger, which only the standalone server has.
 *
 * @module
 */
import type { Logger } from 'pino';
import type { Options } from '../core/config/options.js';

/** Options of `startServer`: {@link Options} (the gateway's, `cors`, and the server's own: `port`, `host`, `timeouts`, `admin`, `adminToken`, `allowedHosts`) and `logger`. */
export interface ServerOptions extends Options {
  /**
   * Request logger (pino): one line per request (see `src/cli/logger.ts` for the command's), and one `error` line
   * per unexpected error when `onError` is not given. Default none.
   */
  logger?: Logger;
}
