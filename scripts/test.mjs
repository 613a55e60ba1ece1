// `npm test` after the build: vitest (`vitest run`, with the arguments given to `npm test -- ...`), and beside it
// the type checks and lint (`npm run checks`: the four `tsc` projects and eslint, npm-run-all2's `run-p`) at the
// lowest CPU priority (os.setPriority, 19), which their processes inherit.
//
// Why beside and not before: vitest keeps the two cores of the project's machine busy about three quarters of its
// run (the rest, its test files wait on servers, timers and a browser), and the checks need about 60 s of CPU. Run
// first, they held the suite up by about 40 s; at the lowest priority they take the cores' idle time, and a test
// file that wants the CPU gets it first (docs/ci.md, "Developing mockrouter").
//
// vitest's output is live; the checks' is printed once vitest has ended (nothing when they passed but one line).
// Exit code: 0 when both passed, else 1 (a failed check does not stop vitest: both reports are shown).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const npm = process.env.npm_execpath;
if (!npm) {
  console.error('scripts/test.mjs: run it with `npm test` (it runs `npm run checks` through the npm that started it)');
  process.exit(2);
}

const started = performance.now();
const checks = spawn(process.execPath, [npm, 'run', '--silent', 'checks'], { stdio: ['ignore', 'pipe', 'pipe'] });
// Set before npm has loaded, so run-p, tsc and eslint, started later by it, inherit it.
try {
  setPriority(checks.pid, 19);
} catch {
  // Not allowed here (some containers): the checks run at the normal priority.
}
let checksOutput = '';
checks.stdout.on('data', (chunk) => (checksOutput += chunk));
checks.stderr.on('data', (chunk) => (checksOutput += chunk));
const checksDone = new Promise((resolve) => checks.on('close', (code) => resolve({ code, seconds: (performance.now() - started) / 1000 })));

const vitestBin = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const vitest = spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
const vitestCode = await new Promise((resolve) => vitest.on('close', (code) => resolve(code)));

const { code: checksCode, seconds } = await checksDone;
if (checksCode === 0) {
  console.log(`type checks and lint (npm run checks, beside vitest): passed in ${seconds.toFixed(0)} s`);
} else {
  process.stdout.write(checksOutput);
  console.error(`type checks and lint (npm run checks): FAILED (exit ${checksCode})`);
}
process.exit(vitestCode === 0 && checksCode === 0 ? 0 : 1);
