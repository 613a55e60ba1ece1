/**
 * The vitest matchers over the journal: thin wrappers of the verdicts in `verdicts.ts` that word the failure
 * message for the positive and the `.not` form. Registered by importing `mockrouter/vitest`.
 *
 * @module
 */
import type { JournalInput } from './retries.js';
import {
  backsOffBetweenRetries,
  honorsRetryAfter,
  pollsGenerationUntilReady,
  retriesStatus,
  type TimingOptions,
  type Verdict,
} from './verdicts.js';

/** What a journal matcher returns to vitest. */
export interface JournalMatcherResult {
  pass: boolean;
  message: () => string;
}

/** The lines of a message, as a list. */
function bullets(lines: readonly string[]): string {
  return lines.length === 0 ? '  (nothing to list)' : lines.map((line) => `  - ${line}`).join('\n');
}

/**
 * What these matchers use of vitest's matcher `this` (its `MatcherState`, which `vitest` exports from version 4 on
 * and `@vitest/expect` before): whether `.not` is on, `.resolves`/`.rejects`, and the hint formatter. Typed here so
 * the declarations stand with every vitest the peer range takes.
 */
export interface JournalMatcherState {
  isNot: boolean;
  /** `'resolves'`, `'rejects'` or `''`. */
  promise: string;
  utils: { matcherHint(matcherName: string, received?: string, expected?: string, options?: { isNot?: boolean; promise?: string }): string };
}

/**
 * The matcher result of a verdict. `failed` heads the problems (positive form fails); `negated` heads the
 * evidence (`.not` form fails, the behavior is there).
 */
function result(state: JournalMatcherState, name: string, expected: string, verdict: Verdict, failed: string, negated: string): JournalMatcherResult {
  return {
    pass: verdict.pass,
    message: () =>
      `${state.utils.matcherHint(name, 'journal', expected, { isNot: state.isNot, promise: state.promise })}\n\n` +
      (state.isNot ? `${negated}:\n${bullets(verdict.evidence)}` : `${failed}:\n${bullets(verdict.problems)}`),
  };
}

function timingArg(options: TimingOptions | undefined): string {
  return options?.toleranceMs === undefined ? '' : `{ toleranceMs: ${options.toleranceMs} }`;
}

/** `expect(journal).toHonorRetryAfter(options?)`; see {@link honorsRetryAfter}. */
export function toHonorRetryAfter(this: JournalMatcherState, received: JournalInput, options?: TimingOptions): JournalMatcherResult {
  const verdict = honorsRetryAfter(received, options);
  return result(
    this,
    'toHonorRetryAfter',
    timingArg(options),
    verdict,
    'Expected every retry to wait at least as long as Retry-After asked, but',
    'Expected a retry earlier than Retry-After asked, but every retry waited long enough',
  );
}

/** `expect(journal).toRetryStatus(status)`; see {@link retriesStatus}. */
export function toRetryStatus(this: JournalMatcherState, received: JournalInput, status: number): JournalMatcherResult {
  const verdict = retriesStatus(received, status);
  const count = verdict.evidence.length;
  return result(
    this,
    'toRetryStatus',
    String(status),
    verdict,
    `Expected a ${status} response to be retried, but`,
    `Expected no ${status} response to be retried, but ${count} ${count === 1 ? 'was' : 'were'}`,
  );
}

/** `expect(journal).toBackOffBetweenRetries(options?)`; see {@link backsOffBetweenRetries}. */
export function toBackOffBetweenRetries(this: JournalMatcherState, received: JournalInput, options?: TimingOptions): JournalMatcherResult {
  const verdict = backsOffBetweenRetries(received, options);
  return result(
    this,
    'toBackOffBetweenRetries',
    timingArg(options),
    verdict,
    'Expected the delay between retries to grow in every retry chain, but',
    'Expected a retry chain whose delay does not grow, but every chain backs off',
  );
}

/** `expect(journal).toPollGenerationUntilReady()`; see {@link pollsGenerationUntilReady}. */
export function toPollGenerationUntilReady(this: JournalMatcherState, received: JournalInput): JournalMatcherResult {
  const verdict = pollsGenerationUntilReady(received);
  return result(
    this,
    'toPollGenerationUntilReady',
    '',
    verdict,
    'Expected every generation looked up to be polled until its record came, and no further, but',
    'Expected a generation not polled until ready, but every one was',
  );
}

/** All matchers, for `expect.extend`. */
export const journalMatchers = { toHonorRetryAfter, toRetryStatus, toBackOffBetweenRetries, toPollGenerationUntilReady };
