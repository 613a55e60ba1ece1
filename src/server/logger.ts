/**
 * The standalone server's request log (pino): human-readable lines on a terminal, JSON lines otherwise
 * (CI logs, files).
 *
 * @module
 */
import pino, { type Logger } from 'pino';

/**
 * Creates the logger writing to stdout. `pino-pretty` is loaded only for a terminal.
 *
 * @param pretty_ `true` for one human-readable line per entry (default: when stdout is a terminal).
 */
export async function createLogger(pretty_: boolean = process.stdout.isTTY === true): Promise<Logger> {
  if (!pretty_) return pino({ base: null });
  const { default: pretty } = await import('pino-pretty');
  return pino(
    { base: null },
    pretty({ sync: true, colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l', messageFormat: '{method} {url} {status} {ms}ms', hideObject: true }),
  );
}
