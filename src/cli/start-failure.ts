/**
 * Why a command could not start, as the command line reports it (after `mockrouter: ` or `mockrouter record: `): a
 * bad configuration file or folder (one line naming the flag, the file, where in it and what was expected, then each
 * other problem on a line of its own), or an address it could not listen on.
 *
 * @module
 */
import { problemLine, type ConfigFileError } from '../core/base/errors.js';

/** The most problems of a bad configuration file listed after the first, one per line. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * `error`'s message for stderr: `<flag> <file>: <location>: <problem> (and N more problems)`, then up to
 * {@link MAX_LISTED_PROBLEMS} of the others, one a line, indented, and how many more were not shown.
 *
 * @param flag the flag that named the file (`--keys`, `--out`), or `undefined` to name none.
 */
export function fileErrorMessage(error: ConfigFileError, flag: string | undefined): string {
  const others = error.problems.slice(1, 1 + MAX_LISTED_PROBLEMS).map((problem) => `\n  ${problemLine(error.file, problem)}`);
  const unlisted = error.problems.length - 1 - others.length;
  return (flag ? `${flag} ${error.message}` : error.message) + others.join('') + (unlisted > 0 ? `\n  (${unlisted} more not shown)` : '');
}

/**
 * What stopped `listen()` on `port` of `host`, in words: the port taken (`EADDRINUSE`), a host this machine cannot
 * bind (`EADDRNOTAVAIL`, `ENOTFOUND`), no permission (`EACCES` of `listen`); `undefined` for any other error.
 *
 * @example listenProblem({ code: 'EADDRINUSE' }, 4010, '127.0.0.1') // 'port 4010 on 127.0.0.1 is already in use (use --port 0 for a free port)'
 */
export function listenProblem(error: unknown, port: number, host: string): string | undefined {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return `port ${port} on ${host} is already in use (use --port 0 for a free port)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot bind host ${host} (${code})`;
  if (code === 'EACCES' && syscall === 'listen') return `no permission to listen on port ${port} of ${host}`;
  return undefined;
}
