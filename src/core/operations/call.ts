/**
 * What an operation is given: the gateway's shared state, the request, its path parameters and the caller's
 * account. Every operation is a function of one {@link OperationCall} that returns a response (speech: with what it
 * renders, {@link OperationAnswer}) or throws a `GatewayError`.
 *
 * @module
 */
import type { Account } from '../accounts/accounts.js';
import type { GatewayContext } from '../context.js';
import type { CoreRequest, CoreResponse, SpeechAudio } from '../types.js';

/** One call of an operation. */
export interface OperationCall {
  /** The gateway's shared state. */
  readonly ctx: GatewayContext;
  /** The request, as the adapter gave it. */
  readonly request: CoreRequest;
  /** Path parameters of the matched route, raw (still percent-encoded), e.g. `{ author, slug }`. */
  readonly params: Readonly<Record<string, string>>;
  /** The authenticated key's account. */
  readonly account: Account;
}

/** What an operation answered: the response, and what the journal keeps besides it. */
export interface OperationAnswer {
  readonly response: CoreResponse;
  /** What a speech answer's body renders (the journal's `audio`, from which the admin API renders it again). */
  readonly audio?: SpeechAudio | undefined;
}

/** An operation: answers one call, or throws a `GatewayError` for the gateway's error envelope. */
export type OperationHandler = (call: OperationCall) => OperationAnswer;

/** An operation whose answer is its response alone (every one but speech). */
export type ResponseHandler = (call: OperationCall) => CoreResponse;
