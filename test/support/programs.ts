/**
 * Running programs from tests (the docs' example scripts, the CLI): whether a command is installed, and a run to
 * its end with its exit code and output.
 *
 * @module
 */
import { execFile, spawnSync } from 'node:child_process';

/** Why `command` cannot run here (`<command> is not installed`), or `undefined` when `<command> --version` runs. */
export function missingCommand(command: string): string | undefined {
  const probe = spawnSync(command, ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0 ? undefined : `${command} is not installed`;
}

/** What {@link runProgram} gives back: the exit code (`null` when killed, by the time bound among others) and output. */
export interface ProgramRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `file` with `args` to its end, in `cwd` (default this process's), with this process's environment and `env`
 * over it (`undefined` in `env` removes a variable), killed after `timeoutMs` (default 60 s: an upper bound).
 */
export function runProgram(file: string, args: string[], env: Record<string, string | undefined>, cwd?: string, timeoutMs = 60_000): Promise<ProgramRun> {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return new Promise((resolve) => {
    execFile(file, args, { env: merged, cwd, timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}
