/**
 * The standalone server's request log (pino): human-readable lines on a terminal, JSON lines otherwise
 * (CI logs, files).
 *
 * @module
 */
import pino, { type Logger } from 'pino';

/**
 * Creates the request logger. Each request is one line: method, URL (credentials' query values redacted by
 * `buildApp`, `src/core/http/redact.ts`), status, ms, and the applied scenario rule (`scenario`) and `generation_id`
 * when there are any; an unexpected error inside the server (reported once, `startServer`'s `onError` default) is
 * one `error` line with `where` and `error`. `pino-pretty` is loaded only for a terminal.
 *
 * @param pretty_ `true` for one human-readable line per entry (default: when stdout is a terminal), `false` for
 *   JSON lines.
 * @param destination where to write; default stdout.
 */
export async function createLogger(pretty_: boolean = process.stdout.isTTY === true, destination?: NodeJS.WritableStream): Promise<Logger> {
  if (!pretty_) return destination ? pino({ base: null }, destination) : pino({ base: null });
  const { default: pretty } = await import('pino-pretty');
  return pino(
    { base: null },
    pretty({
      sync: true,
      colorize: destination === undefined,
      ignore: 'pid,hostname',
      translateTime: 'HH:MM:ss.l',
      // A request's line, or (an unexpected error, `src/core/report-error.ts`) `unexpected error in <where>: <error>`.
      messageFormat:
        '{if method}{method} {url} {status} {ms}ms{end}{if scenario} scenario={scenario}{end}{if generation_id} {generation_id}{end}{if where}{msg} in {where}: {error}{end}',
      hideObject: true,
      ...(destination ? { destination } : {}),
    }),
  );
}
