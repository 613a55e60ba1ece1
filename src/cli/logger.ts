/**
 * The standalone server's request log (pino): human-readable lines on a terminal (`pretty-lines.ts`), JSON lines
 * otherwise (CI logs, files).
 *
 * @module
 */
import type { Logger } from 'pino';
import type { ServerLogger } from '../server/server-options.js';
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
 * @returns a promise of the pino logger, once pino has loaded.
 * @throws (the promise rejects) when pino cannot be loaded.
 */
export async function createLogger(pretty: boolean = process.stdout.isTTY === true, destination?: NodeJS.WritableStream): Promise<Logger> {
  // Loaded here, not at the module's import: a `--quiet` server never parses pino, and the others parse it after
  // their ready line (deferredLogger).
  const { default: pino } = await import('pino');
  if (!pretty) return destination ? pino({ base: null }, destination) : pino({ base: null });
  return pino({ base: null }, prettyDestination(destination ?? process.stdout, destination === undefined));
}

/** Lines a {@link deferredLogger} holds while its logger loads; past this, lines are counted, not kept. */
export const MAX_DEFERRED_LINES = 1_000;

/** A {@link ServerLogger} that takes lines at once and writes them once {@link DeferredLogger.load} has run. */
export interface DeferredLogger extends ServerLogger {
  /**
   * Creates the logger (once; later calls return the same promise) and writes the lines held until then, in
   * order; if more than {@link MAX_DEFERRED_LINES} came, one `warn` line after them says how many were not kept.
   * Rejects as `create` does (nothing is written then, and later lines are dropped).
   */
  load(): Promise<void>;
}

/**
 * A request log that can be handed to `startServer` before its logger exists, so the server's start-up does not
 * wait for pino to be parsed: `serve.ts` calls `load()` after the ready line. Lines logged before then are held,
 * at most {@link MAX_DEFERRED_LINES} (a server answering a flood before its logger loads keeps a bounded queue);
 * a held line carries the time it is written, a few milliseconds after its request.
 *
 * @param create makes the real logger, e.g. `() => createLogger()`.
 *
 * @example
 * const logger = deferredLogger(() => createLogger());
 * const server = await startServer({ port: 0, logger });
 * console.log(`listening on ${server.baseUrl}`);
 * await logger.load();
 */
export function deferredLogger(create: () => Promise<ServerLogger & { warn(fields: Record<string, unknown>, message: string): void }>): DeferredLogger {
  type Line = { level: 'info' | 'error'; fields: Record<string, unknown>; message: string };
  let held: Line[] | undefined = [];
  let dropped = 0;
  let real: ServerLogger | undefined;
  let loading: Promise<void> | undefined;
  const write = (level: Line['level']) => (fields: Record<string, unknown>, message: string) => {
    if (real) real[level](fields, message);
    else if (held && held.length < MAX_DEFERRED_LINES) held.push({ level, fields, message });
    else dropped += 1;
  };
  return {
    info: write('info'),
    error: write('error'),
    load() {
      loading ??= create().then(
        (logger) => {
          for (const line of held ?? []) logger[line.level](line.fields, line.message);
          if (dropped > 0) logger.warn({ dropped }, `${dropped} request lines came before the log was ready and were not kept`);
          held = undefined;
          real = logger;
        },
        (error: unknown) => {
          held = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}
