/**
 * The answers the recording proxy makes itself, when the upstream gave none it can pass on: the gateway's error
 * envelope (`src/core/base/error-envelope.ts`), with {@link OWN_ANSWER_HEADER} naming why. A recorder never
 * records an answer carrying that header (its own, come back through a loop, or another recorder's in a chain):
 * it records only what the gateway answered.
 *
 * @module
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { errorResponse, type ErrorType } from '../core/base/error-envelope.js';

/** The header of a recorder's own answers; its value is an {@link OwnAnswerReason}. */
export const OWN_ANSWER_HEADER = 'X-Mockrouter-Record-Error';

/** Why a recorder answered itself. */
export type OwnAnswerReason =
  /** 502: the upstream could not be reached, or closed the connection without an answer. */
  | 'unreachable'
  /** 502: the upstream answered a head HTTP cannot pass on (`answer-head.ts`). */
  | 'invalid-answer'
  /** 504: no answer head within `--upstream-timeout`. */
  | 'timeout'
  /** 508: the request came back to this recorder (`recording-loop.ts`). */
  | 'loop';

const STATUS: Record<OwnAnswerReason, { status: number; errorType: ErrorType }> = {
  unreachable: { status: 502, errorType: 'provider_unavailable' },
  'invalid-answer': { status: 502, errorType: 'provider_unavailable' },
  timeout: { status: 504, errorType: 'timeout' },
  loop: { status: 508, errorType: 'server' },
};

/** Whether an answer is a recorder's own (carries {@link OWN_ANSWER_HEADER}). */
export function isOwnAnswer(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  return headers[OWN_ANSWER_HEADER.toLowerCase()] !== undefined;
}

/**
 * Answers `res` with the envelope of `reason` (see {@link OwnAnswerReason}) and `message`; when the answer has
 * started already, cuts it instead (the client sees an answer cut short).
 *
 * @returns the status answered, or `undefined` when the answer was cut.
 */
export function sendOwnAnswer(res: ServerResponse, reason: OwnAnswerReason, message: string, upstream: string): number | undefined {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return undefined;
  }
  const { status, errorType } = STATUS[reason];
  const answer = errorResponse(status, { message, metadata: { error_type: errorType, upstream }, headers: { [OWN_ANSWER_HEADER]: reason } });
  res.writeHead(answer.status, STATUS_CODES[answer.status] ?? 'Error', answer.headers as Record<string, string>);
  res.end(answer.body as string);
  return status;
}
