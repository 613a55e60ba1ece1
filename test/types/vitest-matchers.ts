/**
 * Type test of `mockrouter/vitest` as a user's project sees it: the package's own `.d.ts` (self-reference, after
 * `npm run build`), checked with `skipLibCheck: false` (`test/types/tsconfig.json`, run by `npm run typecheck`),
 * so a declaration that merges badly with vitest's (TS2428) fails here. Never run, only compiled.
 */
import { expect } from 'vitest';
import type { Journal } from 'mockrouter';
import 'mockrouter/vitest';

declare const journal: Journal;

export function matchersTypeCheck(): void {
  expect(journal).toHonorRetryAfter();
  expect(journal).toHonorRetryAfter({ toleranceMs: 10 });
  expect(journal).toRetryStatus(429);
  expect(journal).not.toRetryStatus(400);
  expect(journal).toBackOffBetweenRetries();
  expect(journal).toPollGenerationUntilReady();
  void expect(Promise.resolve(journal)).resolves.toRetryStatus(503);
  // @ts-expect-error the status is a number
  expect(journal).toRetryStatus('429');
  // @ts-expect-error no such option
  expect(journal).toHonorRetryAfter({ tolerance: 10 });
  // @ts-expect-error no such matcher
  expect(journal).toRetryStatuses(429);
}
