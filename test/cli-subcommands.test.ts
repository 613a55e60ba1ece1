/**
 * The `mockrouter` command's subcommands through the installed entry (`bin/mockrouter.js`, the bundle of
 * `src/cli/index.ts`): `record` and `verify` reach their own commands (`src/cli/record-command.ts`,
 * `src/cli/verify-command.ts`), anything else the server (`src/cli/serve.ts`). What each does is tested in
 * test/record.test.ts and test/verify.test.ts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, watchProcess } from './support/cli.js';
import { runProgram, type ProgramRun } from './support/programs.js';

/** Runs `mockrouter <args>` to its end (`runProgram` of `test/support/programs.ts`): exit code, stdout and stderr (bounded: 30 s). */
function run(args: string[], env: Record<string, string | undefined> = {}): Promise<ProgramRun> {
  return runProgram(process.execPath, [CLI_BIN, ...args], env, undefined, 30_000);
}

describe('mockrouter subcommands', () => {
  it('record --help and verify --help show their own usage under the command name', async () => {
    const record = await run(['record', '--help']);
    expect(record.code).toBe(0);
    expect(record.stdout).toMatch(/^Usage: mockrouter record \[options\]/);
    expect(record.stdout).toContain('--upstream <url>');
    const verify = await run(['verify', '--help']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^Usage: mockrouter verify \[options\]/);
  });

  it('verify without OPENROUTER_API_KEY exits 2 and says why; the server help names both subcommands', async () => {
    const verify = await run(['verify', '--upstream', 'http://127.0.0.1:9'], { OPENROUTER_API_KEY: undefined });
    expect(verify.code).toBe(2);
    expect(verify.stderr).toContain('OPENROUTER_API_KEY');
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('mockrouter record --help');
    expect(help.stdout).toContain('mockrouter verify --help');
  });
});

describe('mockrouter --help, record --help and verify --help', () => {
  const COMMANDS = [[], ['record'], ['verify']];
  const named = (command: string[]) => ['mockrouter', ...command, '--help'].join(' ');

  it.each([
    ['unset', 100, undefined],
    ['80', 80, '80'],
  ])('with COLUMNS %s, every line is at most %s characters', async (_label, max, columns) => {
    for (const command of COMMANDS) {
      const help = await run([...command, '--help'], { COLUMNS: columns });
      expect(help.code, named(command)).toBe(0);
      expect(help.stdout.split('\n').length, named(command)).toBeGreaterThan(10);
      expect(help.stdout.split('\n').filter((line) => line.length > max), named(command)).toEqual([]);
    }
  });

  it('each says "show this help" for -h, --help', async () => {
    for (const command of COMMANDS) expect((await run([...command, '--help'])).stdout, named(command)).toMatch(/^ {2}-h, --help +show this help$/m);
  });

  it("--fixtures says a folder mockrouter record wrote is served with its recorded audio, and how to replay its recorded errors", async () => {
    const help = (await run(['--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('a folder written by mockrouter record is served as recorded: its models, its generation records, its recorded speech audio and transcripts');
    expect(help).toContain('--scenarios <dir>/scenarios --scenario recorded');
  });
});

/**
 * Under npx, npm's shell exits on SIGTERM without passing it on (src/cli/npm-parent.ts): `record` and `verify`, like
 * the server, stop once that shell is gone. Started as npm does (a shell between, `npm_command` set); the shell is
 * then killed, which orphans the command.
 */
describe('record and verify stop with the npm that started them', () => {
  /** Starts `mockrouter <args>` under a shell as npm does, waits for `ready` on its output, kills the shell. */
  async function orphaned(args: string, ready: RegExp, npmCommand: string | undefined = 'exec', started: () => boolean = () => true): Promise<{ stopped: boolean; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, OPENROUTER_API_KEY: 'sk-orphan-test' };
    if (npmCommand === undefined) delete env.npm_command;
    else env.npm_command = npmCommand;
    const shell = watchProcess(spawn('sh', ['-c', `"${process.execPath}" "${CLI_BIN}" ${args} & echo "pid $!"; wait`], { stdio: 'pipe', env }));
    const printed = () => shell.stdout() + shell.stderr();
    for (const end = Date.now() + 20_000; !(ready.test(printed()) && started()) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(printed()).toMatch(ready);
    const pid = Number(/^pid (\d+)$/m.exec(shell.stdout())![1]);
    shell.child.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // The parent is read every 500 ms: 5 s is a bound from above only.
    for (const end = Date.now() + 5_000; alive() && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = !alive();
    if (!stopped) process.kill(pid, 'SIGKILL');
    return { stopped, stderr: shell.stderr() };
  }

  it('record stops, saying why; with --outlive-npm it keeps running', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mockrouter-orphan-'));
    try {
      const upstream = 'http://127.0.0.1:9';
      const gone = await orphaned(`record --upstream ${upstream} --out ${out} --port 0 --quiet`, /listening on/);
      expect(gone.stopped).toBe(true);
      expect(gone.stderr).toContain('mockrouter record: the npm that started it has exited; stopping (--outlive-npm keeps it running)\n');
      expect((await orphaned(`record --upstream ${upstream} --out ${out} --port 0 --quiet --outlive-npm`, /listening on/)).stopped).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 40_000);

  it('verify stops (exit 2), saying why', async () => {
    // An upstream that accepts the connection and never answers: verify waits, and its npm goes away meanwhile.
    let asked = false;
    const silent = createServer(() => void (asked = true)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    try {
      // Orphaned once its first request reached the upstream: verify is running by then.
      const gone = await orphaned(`verify --upstream http://127.0.0.1:${port} --timeout 60000`, /pid \d+/, 'exec', () => asked);
      expect(gone.stopped).toBe(true);
      expect(gone.stderr).toContain('mockrouter verify: the npm that started it has exited; stopping (--outlive-npm keeps it running)\n');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 40_000);
});
