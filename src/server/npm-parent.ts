/**
 * Stopping the CLI when the npm that started it goes away. Started by `src/cli.ts`; a library user's process is
 * left alone (only the CLI owns its process, as with `src/server/buffer-collector.ts`).
 *
 * Why: `npx mockrouter` and `npm start` run the CLI as npm → `sh -c` → node. A CI script that starts it in the
 * background and later stops it (`npx mockrouter & pid=$!; …; kill $pid`) signals npm, npm signals the shell, and
 * the shell exits without passing the signal on: node was left running, holding the port, with init as its parent
 * (seen with npm 11.19 on Debian's dash). Ctrl-C in a terminal is unaffected: it reaches the whole foreground
 * process group, node included.
 *
 * How: when the environment says npm started the process (`npm_command`, which npm sets for every script and for
 * `npm exec`), the parent's pid is read every {@link PARENT_CHECK_INTERVAL_MS}; once it changes (the parent
 * exited and the process was re-parented to init or a subreaper), `onOrphaned` runs, once. A process started
 * without npm (`node bin/mockrouter.js`, `nohup`, a service manager) is never watched, so one meant to outlive its
 * shell keeps running.
 *
 * @module
 */

/** How often the parent's pid is read, ms. */
export const PARENT_CHECK_INTERVAL_MS = 500;

/**
 * Calls `onOrphaned` once when this process, started through npm, loses the parent it started with.
 *
 * @param onOrphaned - called at most once, about {@link PARENT_CHECK_INTERVAL_MS} after the parent exits.
 * @param env - the environment to read `npm_command` from; default `process.env`.
 * @returns a function that stops watching; `undefined` when the process was not started through npm (nothing to
 *   watch). The timer never keeps the process alive on its own (`unref`).
 */
export function stopWithNpmParent(onOrphaned: () => void, env: NodeJS.ProcessEnv = process.env): (() => void) | undefined {
  if (!env.npm_command) return undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, PARENT_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
