/**
 * `mockrouter/vitest`: resilience matchers over the request journal. Importing this module registers them with
 * vitest's `expect` and adds their types to `expect(...)`.
 *
 * Each matcher takes a `Journal` (`mock.journal`), a `JournalEntry[]`, or the admin API's answer
 * `{ requests: JournalEntry[] }` (`GET /__mock/requests` of the standalone server), and fails with a message
 * naming the offending requests (`#<seq> METHOD path at hh:mm:ss.mmm`, UTC, from the journal's `time`).
 *
 * - `toHonorRetryAfter(options?)`: no retry came before the `Retry-After`/`retry-after-ms` its failed response
 *   asked ({@link honorsRetryAfter}).
 * - `toRetryStatus(status)`: some response with `status` was retried; `.not.toRetryStatus(402)`: none was
 *   ({@link retriesStatus}).
 * - `toBackOffBetweenRetries(options?)`: the delay between retries grows in every chain ({@link backsOffBetweenRetries}).
 * - `toPollGenerationUntilReady()`: every generation looked up was polled until its record came, and no further
 *   ({@link pollsGenerationUntilReady}).
 *
 * The same rules are exported as pure functions returning `{ pass, problems, evidence }`. Retries and retry
 * chains are defined in `retries.ts`: the next request of the same session, method, path, query and JSON body,
 * after a failure (status 0 or ≥ 400).
 *
 * @example
 * import 'mockrouter/vitest';
 *
 * mock.useScenario('rate-limited-then-ok');
 * await openai.audio.speech.create({ model, input, voice });
 * expect(mock.journal).toHonorRetryAfter();
 * expect(mock.journal).toRetryStatus(429);
 * expect(mock.journal).not.toRetryStatus(402);
 *
 * @module
 */
import { expect } from 'vitest';
import { journalMatchers } from './matchers.js';
import type { TimingOptions } from './verdicts.js';

expect.extend(journalMatchers);

// The matchers' types go on Chai's `Assertion`, which vitest maps onto its own `Assertion` (`expect(x).…`, `.not`,
// `.resolves`) in every version: vitest's `Matchers` interface, the usual place, changed its type parameters in
// vitest 5 (`<R, T>` from `<T>`), and a declaration merged with the wrong list is error TS2428 unless `skipLibCheck`.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    interface Assertion {
      /**
       * Every retry waited at least as long as its failed response's `retry-after-ms` or `Retry-After` asked
       * (within `toleranceMs`, default 5). Fails listing each early retry; also fails when no response carried
       * either header.
       */
      toHonorRetryAfter(options?: TimingOptions): void;
      /**
       * At least one response with `status` was retried (the same request again, same session, after it). With
       * `.not`, fails naming every retried one.
       */
      toRetryStatus(status: number): void;
      /**
       * In every retry chain with two or more retries, the gaps between attempts never shrink and the last exceeds
       * the first (waits set by `Retry-After` left out). Fails naming each chain and its gaps; also fails when no
       * chain has two retries.
       */
      toBackOffBetweenRetries(options?: TimingOptions): void;
      /**
       * Every generation id looked up got 404s (or transient failures), then exactly one 200, and no lookup after
       * it. Fails naming the ids never ready or polled again; also fails when there were no lookups.
       */
      toPollGenerationUntilReady(): void;
    }
  }
}

export { journalMatchers, type JournalMatcherResult, type JournalMatcherState } from './matchers.js';
export {
  backsOffBetweenRetries,
  honorsRetryAfter,
  pollsGenerationUntilReady,
  retriesStatus,
  DEFAULT_TOLERANCE_MS,
  type TimingOptions,
  type Verdict,
} from './verdicts.js';
export {
  canonicalJson,
  isFailure,
  journalEntries,
  requestIdentity,
  retryAfterOf,
  retryChains,
  type JournalInput,
  type RetryAfter,
  type RetryChain,
} from './retries.js';
