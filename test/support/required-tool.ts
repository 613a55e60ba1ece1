/**
 * Suites that need a program from Debian (Chromium for `test/browser/`, `redis-server` for the store tests):
 * skipped with a visible line where the program is missing locally, and failing under CI, where `.ci/run`
 * installs it. Shared by `test/support/browser.ts` and `test/support/redis.ts`.
 */
import { describe, it } from 'vitest';

/** Whether the suite runs under CI (env `CI` set, and not `''`, `false` or `0`). */
export const IN_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';

/**
 * For a suite whose program is missing (`why` says which and how to install it): under CI, one failing test
 * `has <tool> to run (required under CI)` with `why` as its error; locally, `body` declared under
 * `describe.skip('<title>: <why>')` and the same line written to stderr (the default reporter shows a skipped file
 * as a count only).
 */
export function describeMissingTool(title: string, tool: string, why: string, body: () => void): void {
  if (IN_CI) {
    describe(title, () => {
      it(`has ${tool} to run (required under CI)`, () => {
        throw new Error(why);
      });
    });
  } else {
    console.warn(`skipped: ${title}: ${why}`);
    describe.skip(`${title}: ${why}`, body);
  }
}
