// `npm test` after the build: vitest (`vitest run`, with the arguments given to `npm test -- ...`), and beside it
// the type checks and lint (`npm run checks`: the five `tsc` projects and eslint, npm-run-all2's `run-p`) at the
// lowest CPU priority (os.setPriority, 19), which their processes inherit.
//
// Why beside and not before: vitest's test files often wait (on servers, timers, a browser) and leave a core idle;
// at the lowest priority the checks take that idle time, and a test file that wants the CPU gets it first. Run
// before vitest, they held the whole suite up (docs/ci.md, "Developing mockrouter", has the figures).
//
// vitest's output is live; the checks' output, if any, is printed once vitest has ended, then one line saying whether
// they passed. Exit code: 0 when both passed, else 1 (a failed check does not stop vitest: both reports are shown).
// SIGINT and SIGTERM are passed on to both (the checks' whole process group), and the script ends when they have.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const started = performance.now();

// The npm that runs this script (`npm_execpath`), else the `npm` on the PATH (a shell on Windows runs its npm.cmd).
const npmCli = process.env.npm_execpath;
// Their own process group where there are groups, so a signal reaches run-p, tsc and eslint too (npm's shell passes
// none on).
const windows = process.platform === 'win32';
const checksOptions = { stdio: ['ignore', 'pipe', 'pipe'], detached: !windows, shell: windows && !npmCli };
const checks = npmCli ? spawn(process.execPath, [npmCli, 'run', '--silent', 'checks'], checksOptions) : spawn('npm', ['run', '--silent', 'checks'], checksOptions);
// Set before npm has loaded, so run-p, tsc and eslint, started later by it, inherit it. No pid: npm did not start
// (its 'error' below says so), and there is nothing to lower.
try {
  if (checks.pid !== undefined) setPriority(checks.pid, 19);
} catch {
  // Not allowed here (some containers): the checks run at the normal priority.
}
let checksOutput = '';
checks.stdout.on('data', (chunk) => (checksOutput += chunk));
checks.stderr.on('data', (chunk) => (checksOutput += chunk));
const checksDone = new Promise((resolve) => {
  checks.on('error', (error) => resolve({ code: `not started: ${error.message}`, seconds: 0 }));
  checks.on('close', (code, signal) => resolve({ code: code ?? signal, seconds: (performance.now() - started) / 1000 }));
});

const vitestBin = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const vitest = spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
const vitestDone = new Promise((resolve) => vitest.on('close', (code, signal) => resolve(code ?? signal)));

/** Sends `signal` to the checks (their whole group, but on Windows) while they run. */
function signalChecks(signal) {
  if (checks.pid === undefined || checks.exitCode !== null || checks.signalCode !== null) return;
  try {
    if (windows) checks.kill(signal);
    else process.kill(-checks.pid, signal);
  } catch {
    // Already gone.
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (vitest.exitCode === null && vitest.signalCode === null) vitest.kill(signal);
    signalChecks(signal);
  });
}
// The checks never outlive the script, however it ends.
process.on('exit', () => signalChecks('SIGTERM'));

const vitestCode = await vitestDone;
const { code: checksCode, seconds } = await checksDone;
if (checksOutput !== '') process.stdout.write(checksOutput);
if (checksCode === 0) console.log(`type checks and lint (npm run checks, beside vitest): passed in ${seconds.toFixed(0)} s`);
else console.error(`type checks and lint (npm run checks): FAILED (${typeof checksCode === 'number' ? `exit ${checksCode}` : checksCode})`);
// Set, not process.exit(): the output above is written to its end first (a pipe's writes are asynchronous).
process.exitCode = vitestCode === 0 && checksCode === 0 ? 0 : 1;
