/**
 * A bad configuration file or folder as the command line reports it: one line naming the flag, the file, where in
 * it and what was expected, then each other problem on a line of its own.
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
