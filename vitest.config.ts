import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // examples/recording/replay.test.ts replays a folder recorded by `mockrouter record`: the suite runs it from
    // test/recording-examples.test.ts on a folder recorded there (RECORDED_DIR), not on its own (it has none).
    exclude: process.env.RECORDED_DIR === undefined ? [...configDefaults.exclude, 'examples/recording/replay.test.ts'] : configDefaults.exclude,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // One test file per core. vitest's default is one fewer than the cores, which on a 2-core machine runs the files
    // one at a time; many of them mostly wait (servers, timers, a browser), so two at a time took the suite from
    // about 200 s to about 130 s there (three at a time: no faster).
    maxWorkers: availableParallelism(),
  },
});
