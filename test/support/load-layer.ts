/**
 * The load layer: the tests that put load on the simulator, soak it or measure it, and the fuzz properties at full
 * size. `npm run test:load` runs it (`MOCKROUTER_LOAD=1 vitest run --tags-filter=load`): the files of
 * `vitest.config.ts`'s `LOAD_FILES`, and in them the tests and blocks tagged {@link LOAD_TAG}, at the full sizes
 * below. `npm test` (no env) runs the same behaviour tests at the smaller sizes, and skips the ones that only measure
 * ({@link itLoad}) with a title and a stderr line that say so. `.ci/run` runs both. Env `FUZZ_RUNS`, `LOAD_SECONDS`
 * and `BAD_CLIENT_CYCLES` still override their sizes in either.
 *
 * @module
 */
import { it } from 'vitest';

/** Whether this run is the load layer: env `MOCKROUTER_LOAD=1`, which `npm run test:load` sets. */
export const LOAD = process.env.MOCKROUTER_LOAD === '1';

/** The vitest tag of the load layer's tests and blocks (defined in `vitest.config.ts`). */
export const LOAD_TAG = 'load';

/** What the title of a test that only the load layer runs ends with. */
export const LOAD_ONLY = '(runs in npm run test:load)';

/** `full` in the load layer, `small` in `npm test`. */
export function loadSize<T>(small: T, full: T): T {
  return LOAD ? full : small;
}

/**
 * Fuzz requests per operation and mode (`test/support/fuzz/settings.ts` `RUNS`; `FUZZ_RUNS` overrides): 2,000 in
 * `npm test`, 10,000 in the load layer. The discovery and account reads run a fifth of it.
 */
export const FUZZ_RUNS = loadSize(2_000, 10_000);

/** Seconds of mixed load in `test/load.test.ts` (`LOAD_SECONDS` overrides): 4 in `npm test`, 10 in the load layer. */
export const LOAD_SECONDS = loadSize(4, 10);

/** Distinct 15 KB keys in `test/per-key-memory.test.ts`: 2,000 in `npm test`, 6,000 in the load layer. */
export const MEMORY_KEYS = loadSize(2_000, 6_000);

/**
 * Disconnect-mid-stream cycles measured in `test/bad-clients.test.ts` (`BAD_CLIENT_CYCLES` overrides): 500 in
 * `npm test`, 2,000 in the load layer.
 */
export const DISCONNECT_CYCLES = loadSize(500, 2_000);

/**
 * A test that only measures or soaks, tagged {@link LOAD_TAG}: it runs in the load layer. In `npm test` it is skipped,
 * its title ending {@link LOAD_ONLY}, and the same line is written to stderr (the default reporter shows a skipped
 * test as a count only).
 *
 * @param title - the test's title; {@link LOAD_ONLY} is appended to it in both layers.
 * @param fn - the test's body.
 * @param timeoutMs - vitest timeout of the test, ms.
 */
export function itLoad(title: string, fn: () => Promise<void>, timeoutMs: number): void {
  const shown = `${title} ${LOAD_ONLY}`;
  if (!LOAD) console.warn(`skipped: ${shown}`);
  it(shown, { tags: [LOAD_TAG], skip: !LOAD, timeout: timeoutMs }, fn);
}
