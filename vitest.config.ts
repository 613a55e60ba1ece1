import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { slowestFirst } from './test/support/slowest-first.js';

/** Whether this run is the load layer (`npm run test:load`, env `MOCKROUTER_LOAD=1`; test/support/load-layer.ts). */
const LOAD = process.env.MOCKROUTER_LOAD === '1';

/**
 * The files that hold the load layer's tests (tagged `load`): the fuzz suites, the load test, the per-key memory
 * test, the disconnect soak of the bad clients and the two measurements of the store tests.
 */
export const LOAD_FILES = [
  'test/fuzz-msw.test.ts',
  'test/fuzz-server.test.ts',
  'test/load.test.ts',
  'test/per-key-memory.test.ts',
  'test/bad-clients.test.ts',
  'test/replicas-store-state.test.ts',
  'test/replicas-faults.test.ts',
];

/**
 * Test files that need a module registry of their own: they replace a global or a module for the whole file
 * (`WebAssembly.instantiate`, `vi.doMock`, `vi.resetModules`, fake timers), or check a module's state before its
 * first use (the MP3 encoder not loaded yet, the words threads not started). Every other file shares its worker's
 * modules with the files that worker ran before it (`isolate: false`), so it does not import the core, zod and msw
 * again: importing was about a quarter of the suite's time (121 of 961 worker-seconds, against 66 shared).
 */
export const ISOLATED_FILES = [
  'test/mp3-load-failure.test.ts',
  'test/unit/mp3.test.ts',
  'test/unit/mp3-source.test.ts',
  'test/unit/mp3-recycle.test.ts',
  'test/unit/speech-pieces.test.ts',
  'test/words-threads.test.ts',
  'test/examples.test.ts',
  'test/generation-readiness.test.ts',
  'test/admin-events.test.ts',
  // Counts the full collections the process's own ArrayBuffer memory starts: another file's buffers would add one.
  'test/buffer-collector.test.ts',
];

/**
 * The slowest test files of `npm test` on the project's 2-core machine (fresh clones, 2026-11-29), about longest
 * first (their times move with what runs beside them): a run without vitest's own durations starts them first within
 * each project, the isolated project's files before the shared project's (`test/support/slowest-first.ts`). A file missing here only
 * starts later; a name here that is no file fails `test/ci-workflow.test.ts`.
 */
export const SLOWEST_FILES = [
  'test/browser/dashboard.test.ts',
  'test/examples.test.ts',
  'test/speech-words.test.ts',
  'test/pytest-plugin.test.ts',
  'test/words-threads.test.ts',
  'test/verify.test.ts',
  'test/bad-clients.test.ts',
  'test/cli.test.ts',
  'test/cli-store.test.ts',
  'test/browser/worker.test.ts',
  'test/cli-subcommands.test.ts',
  'test/streaming.test.ts',
  'test/verify-limits.test.ts',
  'test/speech-words-wire.test.ts',
  'test/recording-examples.test.ts',
  'test/fuzz-msw.test.ts',
  'test/hostile-files.test.ts',
  'test/scenarios-parity.test.ts',
  'test/fuzz-server.test.ts',
  'test/speech-models.test.ts',
  'test/config-files.test.ts',
  'test/transcription-examples.test.ts',
  'test/words-peer-missing.test.ts',
  'test/record-limits.test.ts',
  'test/browser/words.test.ts',
  'test/speech-words-turns.test.ts',
];

const INCLUDE = LOAD ? LOAD_FILES : ['test/**/*.test.ts', 'examples/**/*.test.ts'];
// examples/recording/replay.test.ts replays a folder recorded by `mockrouter record`: the suite runs it from
// test/recording-examples.test.ts on a folder recorded there (RECORDED_DIR), not on its own (it has none).
const EXCLUDE = process.env.RECORDED_DIR === undefined ? [...configDefaults.exclude, 'examples/recording/replay.test.ts'] : configDefaults.exclude;

export default defineConfig({
  test: {
    tags: [{ name: 'load', description: 'the load layer: full-size fuzz, load, soak and memory tests, the store measurements (npm run test:load)' }],
    testTimeout: 20_000,
    sequence: { sequencer: slowestFirst(SLOWEST_FILES) },
    hookTimeout: 20_000,
    // One test file per core. vitest's default is one fewer than the cores, which on a 2-core machine runs the files
    // one at a time; many of them mostly wait (servers, timers, a browser), so two at a time took the suite from
    // about 200 s to about 130 s there (three at a time: no faster). Again on 2026-11-29, a fresh clone with the
    // files sharing modules: two 336 s, three 357 s, four 369 s (the processes the tests start fill the cores).
    maxWorkers: availableParallelism(),
    // The load layer runs its files only (and in them, with `--tags-filter=load`, only the tests tagged `load`);
    // `npm test` runs every file. Two projects of one run, sharing its workers: the isolated files, and the rest.
    projects: [
      // The load layer's files all share (none is isolated).
      ...(LOAD ? [] : [{ extends: true as const, test: { name: 'isolated', include: ISOLATED_FILES, exclude: EXCLUDE } }]),
      { extends: true, test: { name: 'shared', include: INCLUDE, exclude: [...EXCLUDE, ...ISOLATED_FILES], isolate: false } },
    ],
  },
});
