/**
 * Why `mockrouter verify` could not run (exit code 2): a stable code and a message that names what to fix. No
 * message carries the API key.
 *
 * @module
 */

/**
 * - `E_VERIFY_NO_KEY`: `OPENROUTER_API_KEY` is unset or empty;
 * - `E_VERIFY_UPSTREAM_URL`: `--upstream` is no usable URL;
 * - `E_VERIFY_UNREACHABLE`: a request to the upstream failed or timed out (the message names the URL);
 * - `E_VERIFY_UNAUTHORIZED`: the upstream answered 401.
 */
export type VerifyErrorCode = 'E_VERIFY_NO_KEY' | 'E_VERIFY_UPSTREAM_URL' | 'E_VERIFY_UNREACHABLE' | 'E_VERIFY_UNAUTHORIZED';

/** The drift check could not run; `code` says why ({@link VerifyErrorCode}). */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
  constructor(
    readonly code: VerifyErrorCode,
    message: string,
  ) {
    super(message);
  }
}
