/**
 * The request log's lines for a terminal: pino's JSON lines turned into one readable line each,
 * `[HH:MM:ss.mmm] LEVEL: <message>` in local time, as `pino-pretty` printed them before the package dropped it
 * (one small formatter instead of its 18 packages). The message of a request's line is
 * `<method> <url> <status> <ms>ms[ scenario=<rule>][ <generation id>][ closed early]` (status 0: closed before any
 * answer), of an unexpected error's
 * `unexpected error in <where>: <error>` (`src/core/base/report-error.ts`), else pino's `msg`. Every value is printed with
 * its control characters escaped ({@link escapeControls}), so a value from a client or an upstream (a URL, a model
 * id, an error) can neither forge a log line nor send escape sequences to the terminal.
 *
 * @module
 */

/** pino's level numbers and their labels. */
const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** ANSI colors of each label on a terminal (as pino-pretty's colorette gave them). */
const LEVEL_COLORS: Readonly<Record<string, string>> = { TRACE: '90', DEBUG: '34', INFO: '32', WARN: '33', ERROR: '31', FATAL: '41' };

/** What a pino JSON line holds (the fields the request log writes; others are ignored). */
interface LogRecord {
  level?: number;
  time?: number;
  msg?: string;
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
  closed_early?: boolean;
  scenario?: string;
  generation_id?: string;
  where?: string;
  error?: string;
}

function twoDigits(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * `text` with every control character (C0, DEL, C1, and the line and paragraph separators U+2028 and U+2029) written
 * as an escape: `\n`, `\r`, `\t`, `\e` for ESC, else `\xNN` or `\uNNNN`. A backslash stays as it is.
 *
 * @example escapeControls('a\u001b[31mb\r\nc') // 'a\\e[31mb\\r\\nc'
 */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    const code = char.charCodeAt(0);
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    if (code === 0x1b) return '\\e';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** The message of one record (see the module's description), its control characters escaped. */
function messageOf(record: LogRecord): string {
  return escapeControls(rawMessageOf(record));
}

function rawMessageOf(record: LogRecord): string {
  if (record.method !== undefined) {
    let line = `${record.method} ${record.url ?? ''} ${record.status ?? ''} ${record.ms ?? ''}ms`;
    if (record.scenario) line += ` scenario=${record.scenario}`;
    if (record.generation_id) line += ` ${record.generation_id}`;
    if (record.closed_early) line += ' closed early';
    return line;
  }
  if (record.where !== undefined) return `${record.msg ?? ''} in ${record.where}: ${record.error ?? ''}`;
  return record.msg ?? '';
}

/**
 * One pino JSON line (`line`, with or without its newline) as a readable line ending in `\n`; a line that is not
 * JSON is returned as it is.
 *
 * @param colorize `true` to color the level label and the message (ANSI escapes), for a terminal.
 */
export function prettyLine(line: string, colorize: boolean): string {
  let record: LogRecord;
  try {
    record = JSON.parse(line) as LogRecord;
  } catch {
    return `${escapeControls(line.endsWith('\n') ? line.slice(0, -1) : line)}\n`;
  }
  const at = new Date(record.time ?? Date.now());
  const time = `${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}:${twoDigits(at.getSeconds())}.${twoDigits(at.getMilliseconds(), 3)}`;
  const label = LEVELS[record.level ?? 30] ?? 'USERLVL';
  const message = messageOf(record);
  if (!colorize) return `[${time}] ${label}: ${message}\n`;
  return `[${time}] \u001b[${LEVEL_COLORS[label] ?? '0'}m${label}\u001b[39m: \u001b[36m${message}\u001b[39m\n`;
}

/**
 * A pino destination that writes each line made readable ({@link prettyLine}) to `out`, synchronously as pino
 * writes it.
 */
export function prettyDestination(out: NodeJS.WritableStream, colorize: boolean): { write(line: string): void } {
  return { write: (line) => void out.write(prettyLine(line, colorize)) };
}
