/**
 * The `mockrouter` command as a user runs it, for the CLI's tests: `bin/mockrouter.js` (the compiled CLI; `npm test`
 * builds first) in a child process, what it prints collected as it comes.
 *
 * - {@link runCli}: starts the command with arguments and environment; {@link Cli.ready} waits for its ready line,
 *   {@link Cli.stop} sends SIGTERM.
 * - {@link watchProcess}: the same collection of output and exit code for a child started another way (a shell
 *   between the test and the CLI, as npm runs it).
 *
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';

/** The compiled CLI (`npm run build`; `npm test` builds first). */
export const CLI_BIN = new URL('../../bin/mockrouter.js', import.meta.url).pathname;

/** The ready line without a store: `mockrouter listening on <base URL>`. */
const READY = /^mockrouter listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m;

/** A child process and what it printed so far. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything on stdout so far. */
  stdout: () => string;
  /** Everything on stderr so far. */
  stderr: () => string;
  /** Resolves with the exit code once the process exits (`null` when a signal ended it). */
  exit: Promise<number | null>;
}

/** A running `mockrouter` process. */
export interface Cli extends CliProcess {
  /**
   * Waits for the ready line (`mockrouter listening on ...` without a store) and resolves the base URL
   * (`http://127.0.0.1:<port>/api/v1`); rejects with the output when the process exits first or 10 s pass (an
   * upper bound: a start that hangs).
   */
  ready(): Promise<string>;
  /** SIGTERM (unless it has exited), then the exit code. */
  stop(): Promise<number | null>;
}

/** Collects `child`'s stdout and stderr as text, and its exit code. */
export function watchProcess(child: ChildProcessWithoutNullStreams): CliProcess {
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Spawns `node bin/mockrouter.js ...args`, with this process's environment and `env` over it. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Cli {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: 'pipe', env: { ...process.env, ...env } });
  const watched = watchProcess(child);
  return {
    ...watched,
    async ready() {
      for (let i = 0; i < 400; i++) {
        const match = READY.exec(watched.stdout());
        if (match) return match[1]!;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no ready line; stdout: ${watched.stdout()} stderr: ${watched.stderr()}`);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return watched.exit;
    },
  };
}
