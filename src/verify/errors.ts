/**
 * Why `mockrouter verify` could not run, or could not finish (exit code 2): a stable code and a message that names
 * what to fix. No message carries the API key.
 *
 * @module
 */

/**
 * Why the check could not run at all (no report):
 *
 * - `E_VERIFY_NO_KEY`: `OPENROUTER_API_KEY` is unset or empty;
 * - `E_VERIFY_UPSTREAM_URL`: `--upstream` is no usable URL;
 * - `E_VERIFY_UNREACHABLE`: a request to the upstream failed or had no answer within `--timeout` (the message
 *   names the URL);
 * - `E_VERIFY_UNAUTHORIZED`: the upstream answered 401.
 */
export type RunErrorCode = 'E_VERIFY_NO_KEY' | 'E_VERIFY_UPSTREAM_URL' | 'E_VERIFY_UNREACHABLE' | 'E_VERIFY_UNAUTHORIZED';

/**
 * Why the check stopped at a probe (the report says which, and holds what was compared before):
 *
 * - `E_VERIFY_ANSWER_TOO_BIG`: the upstream's answer had more than 32 MiB once decoded (`MAX_ANSWER_BYTES`), or
 *   its JSON more than 250,000 array elements and object fields (`MAX_ANSWER_ITEMS`);
 * - `E_VERIFY_ANSWER_TOO_DEEP`: its JSON nests deeper than 64 levels (`MAX_ANSWER_DEPTH`);
 * - `E_VERIFY_ANSWER_TOO_WIDE`: a probe's JSON answers together have more than 10,000 paths and enum values
 *   (`MAX_SHAPE_ENTRIES`), or more than 1,000,000 characters of them (`MAX_SHAPE_CHARS`);
 * - `E_VERIFY_ANSWER_UNREADABLE`: its body broke off, or does not decode as its `Content-Encoding` says;
 * - `E_VERIFY_ANSWER_TIMEOUT`: its body was not whole within `--timeout` (it stalled, or came too slowly);
 * - `E_VERIFY_DEADLINE`: the whole check's `--deadline` passed.
 */
export type ProbeErrorCode =
  | 'E_VERIFY_ANSWER_TOO_BIG'
  | 'E_VERIFY_ANSWER_TOO_DEEP'
  | 'E_VERIFY_ANSWER_TOO_WIDE'
  | 'E_VERIFY_ANSWER_UNREADABLE'
  | 'E_VERIFY_ANSWER_TIMEOUT'
  | 'E_VERIFY_DEADLINE';

/** Every code a {@link VerifyError} carries. */
export type VerifyErrorCode = RunErrorCode | ProbeErrorCode;

const PROBE_ERROR_CODES: ReadonlySet<VerifyErrorCode> = new Set<ProbeErrorCode>(['E_VERIFY_ANSWER_TOO_BIG', 'E_VERIFY_ANSWER_TOO_DEEP', 'E_VERIFY_ANSWER_TOO_WIDE', 'E_VERIFY_ANSWER_UNREADABLE', 'E_VERIFY_ANSWER_TIMEOUT', 'E_VERIFY_DEADLINE']);

/** The check could not run, or stopped; `code` says why ({@link VerifyErrorCode}). */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
  constructor(
    readonly code: VerifyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `error` is one that stops the check at a probe ({@link ProbeErrorCode}), rather than before it ran. */
export function isProbeError(error: unknown): error is VerifyError & { readonly code: ProbeErrorCode } {
  return error instanceof VerifyError && PROBE_ERROR_CODES.has(error.code);
}
