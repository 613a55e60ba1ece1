/**
 * The standalone server's request log (pino): human-readable lines on a terminal, JSON lines otherwise
 * (CI logs, files).
 *
 * @module
 */
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * Creates the logger writing to stdout.
 *
 * @param pretty_ `true` for one human-readable line per entry (default: when stdout is a terminal).
 */
export function createLogger(pretty_: boolean = process.stdout.isTTY === true): Logger {
  if (!pretty_) return pino({ base: null });
  return pino(
    { base: null },
    pretty({ sync: true, colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l', messageFormat: '{method} {url} {status} {ms}ms', hideObject: true }),
  );
}
