/**
 * Where a gateway reports what went wrong inside it without a request's fault: an event listener that threw, a
 * failure while answering or sending a request. Such an error ends at most the one request it happened in and is
 * reported once through the gateway's reporter (option `onError`); it never reaches the process as an uncaught
 * error.
 *
 * @module
 */

/**
 * Receives an unexpected error and where it happened.
 *
 * @param error what was thrown (any value).
 * @param where a short phrase naming the place, e.g. `event listener`, `request POST /api/v1/audio/speech`.
 * @example const onError: ErrorReporter = (error, where) => logger.error({ err: error, where }, 'unexpected error');
 */
export type ErrorReporter = (error: unknown, where: string) => void;

/** One line for `error`: its name and message (`Error: boom`), or the value as text. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return typeof error;
  }
}

/**
 * The default {@link ErrorReporter}: one `console.error` line, `mockrouter: unexpected error in <where>: <error>`.
 * A reporter that throws itself is ignored (see {@link safeReporter}).
 */
export const consoleReporter: ErrorReporter = (error, where) => {
  console.error(`mockrouter: unexpected error in ${where}: ${describeError(error)}`);
};

/** `report`, made unable to throw: a reporter that fails (a closed log stream) is not reported again. */
export function safeReporter(report: ErrorReporter): ErrorReporter {
  return (error, where) => {
    try {
      report(error, where);
    } catch {
      // Nowhere left to say it.
    }
  };
}
