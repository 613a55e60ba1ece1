/**
 * `mockrouter record` as a user runs it, for the recorder's tests: `bin/mockrouter.js record` (the build in `dist/`,
 * which `npm test` makes first, as for the CLI's other tests) in a child process, its log read as it comes (JSON
 * lines from pino; `mockrouter record: ...` lines on stderr).
 *
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_BIN } from './cli.js';

/** One line of the recorder's output: a pino entry's `msg` and level (`warn` at 40), or a plain line. */
export interface LogLine {
  text: string;
  warn: boolean;
}

export interface RecordCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** The lines printed so far. */
  lines(): LogLine[];
  /** The warnings printed so far (pino's `warn` entries, and `mockrouter record: ...` lines). */
  warnings(): string[];
  /** Resolves once a line passes `test` (60 s at most: an upper bound, then rejects with the output). */
  waitForLine(test: (line: LogLine) => boolean): Promise<LogLine>;
  /** Resolves once `count` lines passed `test`. */
  waitForLines(test: (line: LogLine) => boolean, count: number): Promise<void>;
  /** Resolves with the exit code once the process exits. */
  exited(): Promise<number | null>;
  /** Sends SIGTERM (the recorder finishes its writes and exits 0) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The recorders running, so that a test file can stop those a failed test left ({@link killRecordClis}). */
const running = new Set<ChildProcessWithoutNullStreams>();

/** Kills (SIGKILL) every recorder still running; for `afterAll`. */
export function killRecordClis(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Runs `mockrouter record <args>`. */
export function runRecordCli(args: readonly string[]): RecordCli {
  const child = spawn(process.execPath, [CLI_BIN, 'record', ...args], { cwd: process.cwd(), stdio: 'pipe' });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let output = '';
  const lines: LogLine[] = [];
  const waiters: { test: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  const partial = { stdout: '', stderr: '' };
  const take = (line: LogLine) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!waiter.test(line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  const onData = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    partial[stream] += text;
    const parts = partial[stream].split('\n');
    partial[stream] = parts.pop() ?? '';
    for (const raw of parts) {
      if (raw === '') continue;
      try {
        const entry = JSON.parse(raw) as { msg?: unknown; level?: unknown };
        take({ text: String(entry.msg ?? ''), warn: entry.level === 40 });
      } catch {
        take({ text: raw, warn: raw.startsWith('mockrouter record: ') });
      }
    }
  };
  child.stdout.on('data', onData('stdout'));
  child.stderr.on('data', onData('stderr'));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves with the first line to come that passes `test` (60 s at most). */
  const nextLine = (test: (line: LogLine) => boolean) =>
    new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such line within 60 s; output:\n${output}`)), 60_000);
      const waiter = { test, resolve: (line: LogLine) => (clearTimeout(timer), resolve(line)) };
      waiters.push(waiter);
      void exit.then(() => {
        if (!waiters.includes(waiter)) return;
        waiters.splice(waiters.indexOf(waiter), 1);
        clearTimeout(timer);
        reject(new Error(`the recorder exited; output:\n${output}`));
      });
    });
  return {
    child,
    output: () => output,
    lines: () => [...lines],
    warnings: () => lines.filter((line) => line.warn).map((line) => line.text),
    waitForLine: (test) => {
      const found = lines.find(test);
      return found !== undefined ? Promise.resolve(found) : nextLine(test);
    },
    async waitForLines(test, count) {
      let seen = lines.filter(test).length;
      if (seen < count) await nextLine((line) => test(line) && ++seen >= count);
    },
    exited: () => exit,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exit;
    },
  };
}

/** Runs `mockrouter record <args>` and resolves with its base URL once it printed its ready line. */
export async function startRecordCli(args: readonly string[]): Promise<RecordCli & { baseUrl: string }> {
  const cli = runRecordCli(args);
  const ready = await cli.waitForLine((line) => line.text.startsWith('mockrouter record listening on '));
  const baseUrl = /listening on (\S+)/.exec(ready.text)![1]!;
  return Object.assign(cli, { baseUrl });
}
