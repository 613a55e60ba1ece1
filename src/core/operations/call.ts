/**
 * What an operation is given: the gateway's shared state, the request, its path parameters and the caller's
 * account. Every operation is a function of one {@link OperationCall} that returns a response (speech: with what it
 * renders, {@link OperationAnswer}), or a promise of one, or fails with a `GatewayError` (thrown, or as the
 * promise's rejection). The pipeline awaits either, so an operation may wait on state kept elsewhere.
 *
 * @module
 */
import type { Account } from '../accounts/accounts.js';
import type { GatewayContext } from './context.js';
import type { SpeechMode } from '../audio/types.js';
import type { CoreRequest, CoreResponse, MaybePromise, SpeechAudio, TranscriptionFacts } from '../base/types.js';

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
  /** How speech sounds for this request: its `X-Mock-Speech`, else the gateway's option `speech` (`speech-mode.ts`). */
  readonly speech: SpeechMode;
}

/** What an operation answered: the response, and what the journal keeps besides it. */
export interface OperationAnswer {
  readonly response: CoreResponse;
  /** What a speech answer's body renders (the journal's `audio`, from which the admin API renders it again). */
  readonly audio?: SpeechAudio | undefined;
  /**
   * For `audio` known whole only once the body ended (speech with words): what the render then adds to it (its
   * `duration_ms` and `words`), or `undefined` while it is not done (the client went away first).
   */
  readonly audioEnded?: (() => Pick<SpeechAudio, 'duration_ms' | 'words'> | undefined) | undefined;
  /** What a transcription answer transcribed (the journal's `transcription`). */
  readonly transcription?: TranscriptionFacts | undefined;
  /**
   * The request body as the journal keeps it, when the operation reads one the journal cannot keep as sent (a
   * multipart upload, base64 audio): its fields, the audio named by its size. Default: the JSON body as sent.
   */
  readonly requestBody?: unknown;
}

/**
 * An operation: answers one call (or a promise of the answer), or fails with a `GatewayError` for the gateway's
 * error envelope (thrown, or as the promise's rejection).
 */
export type OperationHandler = (call: OperationCall) => MaybePromise<OperationAnswer>;

/** An operation whose answer is its response alone (every one but speech), or a promise of it; fails as {@link OperationHandler}. */
export type ResponseHandler = (call: OperationCall) => MaybePromise<CoreResponse>;
