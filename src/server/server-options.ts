/**
 * The options of `startServer`: every option of mockrouter (`Options` of `src/core/gateway/options.ts`, where each
 * is documented once) and the request logger, which only the standalone server has.
 *
 * @module
 */
import type { Options } from '../core/gateway/options.js';

/**
 * What the server logs through: a pino logger fits (`pino()`; the `mockrouter` command's is made by
 * `src/cli/logger.ts`), as does any object with these two methods. Each call passes the line's fields and its
 * message: `info(fields, 'request')` once per response (fields `method`, `url` with credentials redacted,
 * `status`, `ms`, and `scenario`, `generation_id`, `closed_early` when they apply), `error({ where, error },
 * 'unexpected error')` once per unexpected error.
 */
export interface ServerLogger {
  /** One request's line: its fields, and the message `request`. */
  info(fields: Record<string, unknown>, message: string): void;
  /** One unexpected error's line: `{ where, error }`, and the message `unexpected error`. */
  error(fields: Record<string, unknown>, message: string): void;
}

/** Options of `startServer`: {@link Options} (the gateway's, `cors`, and the server's own: `port`, `host`, `timeouts`, `admin`, `adminToken`, `allowedHosts`) and `logger`. */
export interface ServerOptions extends Options {
  /**
   * Request logger ({@link ServerLogger}, a pino logger for example): one line per request (see `src/cli/logger.ts` for the command's), and one `error` line
   * per unexpected error when `onError` is not given. Default none.
   */
  logger?: ServerLogger;
}

