/**
 * Suites that need a program from Debian (Chromium for `test/browser/`, `redis-server` for the store tests, ffmpeg
 * and PocketSphinx for the transcriptions, bash, curl, jq and python3 for the docs' shell and Python examples):
 * skipped with a visible line where the program is missing locally, and failing under CI, where `.ci/run`
 * installs it. Shared by `test/support/browser.ts`, `test/support/redis.ts` and the tests of the examples.
 */
import { describe, it } from 'vitest';
import { missingCommand } from './programs.js';

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

/**
 * `describe(title, body)` when every one of `commands` runs here (`<command> --version` exits 0; for bash, curl, jq
 * and python3, whose Debian packages have the same names); else {@link describeMissingTool} for the first one
 * missing: failing under CI, skipped with a visible line locally.
 */
export function describeWithCommands(title: string, commands: readonly string[], body: () => void): void {
  for (const command of commands) {
    const why = missingCommand(command);
    if (why !== undefined) return describeMissingTool(title, commands.join(' and '), `${why} (Debian: apt-get install ${command})`, body);
  }
  describe(title, body);
}
