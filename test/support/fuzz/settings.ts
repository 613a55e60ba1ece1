/**
 * Settings of the fuzz suites (`test/fuzz-msw.test.ts`, `test/fuzz-server.test.ts`), read from the environment
 * once at import: `FUZZ_RUNS`, `FUZZ_RAW_RUNS`, `FUZZ_SEED`; `FUZZ_PROFILE=1` adds the time spent per generator
 * branch to each summary (`run.ts`). The suites run in `npm test` at 2,000 requests per operation and mode, and in
 * `npm run test:load` (the load layer, `test/support/load-layer.ts`), which `.ci/run` runs, at 10,000.
 *
 * @module
 */
import { FUZZ_RUNS } from '../load-layer.js';

/**
 * Runs per operation and mode: 2,000 in `npm test`, 10,000 in `npm run test:load` ({@link FUZZ_RUNS});
 * `FUZZ_RUNS=<n>` for either, or for local deep runs.
 */
export const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? FUZZ_RUNS) || FUZZ_RUNS);
/**
 * Runs per discovery or account read (`GET /models`, `/models/count`, endpoints, `/key`, `/credits`) and mode: a
 * fifth of {@link RUNS} (400 in `npm test`, 2,000 in `npm run test:load`). These reads take no body and few
 * parameters, so fewer cases cover them, and the suite stays within a few minutes.
 */
export const READ_RUNS = Math.max(1, Math.round(RUNS / 5));
/** Raw-socket runs against the standalone server: 500 by default, `FUZZ_RAW_RUNS=<n>`. */
export const RAW_RUNS = Math.max(1, Number(process.env.FUZZ_RAW_RUNS ?? 500) || 500);
/** Fixed seed so CI is reproducible; `FUZZ_SEED=<n>` explores other sequences. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101) | 0;
/** Longest wait for an answer and its body, ms. */
export const REQUEST_TIMEOUT_MS = 5_000;
/** Vitest timeout of one property, ms: generous, and proportional to the runs (20 ms a run, at least 2 minutes). */
export const PROPERTY_TIMEOUT_MS = Math.max(120_000, RUNS * 20);
/** Whether to report the time spent per generator branch (`FUZZ_PROFILE=1`). */
export const PROFILE = !!process.env.FUZZ_PROFILE;

/** The origin the msw handlers answer. */
export const MSW_ORIGIN = 'https://openrouter.ai';
