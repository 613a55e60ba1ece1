/**
 * The standalone server's request log (pino): human-readable lines on a terminal (`pretty-lines.ts`), JSON lines
 * otherwise (CI logs, files).
 *
 * @module
 */
import pino, { type Logger } from 'pino';
import { prettyDestination } from './pretty-lines.js';

/**
 * Creates the request logger. Each request is one line: method, URL (credentials' query values redacted by the
 * server, `src/core/http/redact.ts`), status, ms, and the applied scenario rule (`scenario`) and `generation_id`
 * when there are any (`src/server/http-server.ts`); an unexpected error inside the server (reported once,
 * `startServer`'s `onError` default) is one `error` line with `where` and `error`.
 *
 * @param pretty `true` for one human-readable line per entry (default: when stdout is a terminal), `false` for
 *   JSON lines.
 * @param destination where to write; default stdout (colored when pretty).
 */
export async function createLogger(pretty: boolean = process.stdout.isTTY === true, destination?: NodeJS.WritableStream): Promise<Logger> {
  if (!pretty) return destination ? pino({ base: null }, destination) : pino({ base: null });
  return pino({ base: null }, prettyDestination(destination ?? process.stdout, destination === undefined));
}
