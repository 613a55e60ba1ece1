/**
 * Stopping the CLI when the npm that started it goes away. Started by `src/cli/serve.ts`; a library user's process is
 * left alone (only the CLI owns its process, as with `src/cli/buffer-collector.ts`).
 *
 * Why: `npx mockrouter` and `npm start` run the CLI as npm → `sh -c` → node. A CI script that starts it in the
 * background and later stops it (`npx mockrouter & pid=$!; …; kill $pid`) signals npm, npm signals the shell, and
 * the shell exits without passing the signal on: node was left running, holding the port, with init as its parent
 * (seen with npm 11.19 on Debian's dash). Ctrl-C in a terminal is unaffected: it reaches the whole foreground
 * process group, node included.
 *
 * How: when the environment says npm started the process (`npm_command`, which npm sets for `npm exec` and every
 * script, and which every process below them inherits), the parent's pid is read every
 * {@link PARENT_CHECK_INTERVAL_MS}; once it differs from the one taken at start-up (the parent exited and the
 * process was re-parented to init or a subreaper), `onOrphaned` runs, once. That covers a CLI started in the
 * background inside an npm script too (`"pretest": "mockrouter &"`): it stops when that script's shell exits;
 * `--outlive-npm` (the CLI's flag) turns the watch off for such a setup. A process started outside npm
 * (`node bin/mockrouter.js` from a shell, a service manager) is never watched.
 *
 * @module
 */

/** How often the parent's pid is read, ms. */
export const PARENT_CHECK_INTERVAL_MS = 500;

/**
 * Calls `onOrphaned` once when this process, started through npm, loses the parent it started with.
 *
 * @param onOrphaned called at most once, about {@link PARENT_CHECK_INTERVAL_MS} after the parent exits.
 * @param parent the parent's pid taken as early as possible (the first line of the CLI), so a parent that exits
 *   while the server starts is noticed too; default the parent now.
 * @param env the environment to read `npm_command` from; default `process.env`.
 * @returns a function that stops watching; `undefined` when the process was not started through npm (nothing to
 *   watch). The timer never keeps the process alive on its own (`unref`).
 */
export function stopWithNpmParent(onOrphaned: () => void, parent: number = process.ppid, env: NodeJS.ProcessEnv = process.env): (() => void) | undefined {
  if (!env.npm_command) return undefined;
  const check = () => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  };
  const timer = setInterval(check, PARENT_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
