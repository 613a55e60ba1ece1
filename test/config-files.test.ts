/**
 * The files and folders that options and flags name (`keys`/`--keys`, `scenario`/`--scenario`,
 * `scenarios`/`--scenarios`, `fixtures`/`--fixtures`) are read through one bounded reader
 * (`src/node-platform/read-user-file.ts`): a FIFO, a device or a folder where a file is expected, a file over 10 MiB and a
 * YAML alias bomb are each refused at once, with an error naming the file (and, from the CLI, the flag) — through
 * `createMockRouter`, `startServer` and the `mockrouter` command (exit code 1, one message, no stack trace).
 * `--keys <fifo>` hung at start-up, `--keys /dev/zero` grew to gigabytes.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockRouter, FixtureError, KeysError, ScenarioError, type ConfigFileError } from '../src/index.js';
import { MAX_USER_FILE_BYTES, readUserFile } from '../src/node-platform/read-user-file.js';
import { startServer } from '../src/server/index.js';
import { CLI_BIN } from './support/cli.js';


const temp = mkdtempSync(join(tmpdir(), 'mockrouter-config-files-'));

let folders = 0;
/** A fresh folder under `temp`. */
function freshFolder(): string {
  const dir = join(temp, `d${++folders}`);
  mkdirSync(dir);
  return dir;
}

/** Makes `path` one of the bad kinds of file. */
const MAKE = {
  fifo: (path: string) => execFileSync('mkfifo', [path]),
  folder: (path: string) => mkdirSync(path),
  // 11 MiB of spaces: valid YAML (null), so only the size limit refuses it.
  big: (path: string) => writeFileSync(path, Buffer.alloc(11 * 1024 * 1024, ' ')),
  // "Billion laughs": each line nine aliases of the line above.
  bomb: (path: string) =>
    writeFileSync(
      path,
      'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    ),
};
type Bad = keyof typeof MAKE;

/** `(location, problem)` of the error each bad kind of file gives, for a file that should hold `expected`. */
function problemOf(bad: Bad | 'device', expected = 'a JSON or YAML file'): [string, string] {
  switch (bad) {
    case 'fifo':
      return ['', `not a regular file (a FIFO); expected ${expected}`];
    case 'device':
      return ['', `not a regular file (a character device); expected ${expected}`];
    case 'folder':
      return ['', `not a regular file (a folder); expected ${expected}`];
    case 'big':
      return ['', `too large: ${11 * 1024 * 1024} bytes; expected at most 10 MiB (10485760 bytes)`];
    case 'bomb':
      // The first `*c` of line 4: c stands for 100 nodes, and two uses pass the `yaml` package's limit of 100.
      return ['line 4, column 8', 'invalid YAML: Excessive alias count indicates a resource exhaustion attack'];
  }
}

/** A bad file of kind `bad` named `name` in a fresh folder: [folder, file]. */
function badFile(bad: Bad, name = `${bad}.yaml`): [string, string] {
  const dir = freshFolder();
  const file = join(dir, name);
  MAKE[bad](file);
  return [dir, file];
}

/**
 * On code that opens a FIFO to read it (the fault guarded against here), that read would block this test worker for
 * good. This writer ends such a block after 3 s by writing a line into every FIFO made here, so that code fails the
 * tests instead of hanging the run; fixed code never opens a FIFO, and the writers are killed after the tests.
 */
const fifoWriters: ChildProcess[] = [];
function unblockLater(fifo: string): void {
  fifoWriters.push(spawn('sh', ['-c', 'sleep 3; while :; do printf "x: 1\\n" > "$0"; done', fifo], { stdio: 'ignore' }));
}

afterAll(() => {
  for (const writer of fifoWriters) writer.kill('SIGKILL');
  rmSync(temp, { recursive: true, force: true });
});

/** The error `load` throws (it must throw one). */
function errorOf(load: () => unknown): ConfigFileError {
  try {
    load();
  } catch (error) {
    return error as ConfigFileError;
  }
  throw new Error('expected an error');
}

/** Checks that `error` is an `ErrorClass` naming `file`, with `location` and `problem`, in one line. */
function expectFileError(error: unknown, ErrorClass: typeof KeysError, file: string, [location, problem]: [string, string]): void {
  expect(error).toBeInstanceOf(ErrorClass);
  const e = error as ConfigFileError;
  expect({ file: e.file, location: e.location, message: e.message }).toEqual({
    file,
    location,
    message: location ? `${file}: ${location}: ${problem}` : `${file}: ${problem}`,
  });
}

/** Checks the same error from `createMockRouter(options)` and `startServer(options)`. */
async function expectBothRefuse(options: Parameters<typeof createMockRouter>[0], ErrorClass: typeof KeysError, file: string, problem: [string, string]): Promise<void> {
  expectFileError(
    errorOf(() => createMockRouter(options)),
    ErrorClass,
    file,
    problem,
  );
  const rejected = await startServer({ port: 0, ...options }).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  expectFileError(rejected, ErrorClass, file, problem);
}

const BAD_FILES: Bad[] = ['fifo', 'folder', 'big', 'bomb'];

describe('options keys and scenario refuse a file that is not a small regular JSON/YAML file', () => {
  it.for(BAD_FILES)('keys: %s', async (bad) => {
    const [, file] = badFile(bad);
    if (bad === 'fifo') unblockLater(file);
    await expectBothRefuse({ keys: file }, KeysError, file, problemOf(bad));
  });

  it.for(BAD_FILES)('scenario: %s', async (bad) => {
    const [, file] = badFile(bad);
    if (bad === 'fifo') unblockLater(file);
    await expectBothRefuse({ scenario: file }, ScenarioError, file, problemOf(bad));
  });

  it('keys and scenario: /dev/zero, refused without reading it', async () => {
    await expectBothRefuse({ keys: '/dev/zero' }, KeysError, '/dev/zero', problemOf('device'));
    await expectBothRefuse({ scenario: '/dev/zero' }, ScenarioError, '/dev/zero', problemOf('device'));
  });

  it('an alias that names no anchor is an error naming the file and where the alias is', async () => {
    const file = join(freshFolder(), 'keys.yaml');
    writeFileSync(file, 'keys:\n  - sk-a\n  - *nope\n');
    await expectBothRefuse({ keys: file }, KeysError, file, ['line 3, column 5', 'invalid YAML: Unresolved alias (the anchor must be set before the alias): nope']);
  });
});

describe('option scenarios refuses a bad file in its folder, or a path that is not a folder', () => {
  it.for(BAD_FILES)('a %s among the scenario files', async (bad) => {
    const [dir, file] = badFile(bad);
    if (bad === 'fifo') unblockLater(file);
    await expectBothRefuse({ scenarios: dir }, ScenarioError, file, problemOf(bad));
  });

  it.for([
    ['/dev/zero', 'a character device'],
    ['fifo', 'a FIFO'],
    ['file', 'a regular file'],
  ])('scenarios: %s', async ([name, kind]) => {
    let path = name!;
    if (name === 'fifo') [, path] = badFile('fifo', 'fifo');
    if (name === 'file') writeFileSync((path = join(freshFolder(), 'a.yaml')), 'name: a\n');
    await expectBothRefuse({ scenarios: path }, ScenarioError, path, ['', `not a folder (${kind}); expected a folder of JSON or YAML scenario files`]);
  });
});

describe('option fixtures refuses a bad models.json, or a path that is not a folder', () => {
  it.for(['fifo', 'folder', 'big'] as const)('models.json is a %s', async (bad) => {
    const [dir, file] = badFile(bad, 'models.json');
    if (bad === 'fifo') unblockLater(file);
    await expectBothRefuse({ fixtures: dir }, FixtureError, file, problemOf(bad, 'a JSON file'));
  });

  it('fixtures: /dev/zero', async () => {
    await expectBothRefuse({ fixtures: '/dev/zero' }, FixtureError, '/dev/zero', ['', 'not a folder (a character device); expected a folder holding models.json and generations.json']);
  });
});

describe('readUserFile bounds', () => {
  it('reads a file of exactly 10 MiB, and refuses one byte more', () => {
    const file = join(freshFolder(), 'keys.yaml');
    const head = 'keys: [sk-a]\n#';
    writeFileSync(file, head + ' '.repeat(MAX_USER_FILE_BYTES - head.length));
    expect(readUserFile(file, KeysError)).toHaveLength(MAX_USER_FILE_BYTES);
    expect(() => createMockRouter({ keys: file })).not.toThrow();
    writeFileSync(file, ' ', { flag: 'a' });
    expect(() => readUserFile(file, KeysError)).toThrow(new KeysError(file, '', 'too large: 10485761 bytes; expected at most 10 MiB (10485760 bytes)'));
  });

  // Files of /proc report size 0 and hold more: the limit holds on what is read, not only on what fstat says.
  it.skipIf(!existsSync('/proc/self/status'))('stops reading past the limit when the file is larger than its size says', () => {
    expect(() => readUserFile('/proc/self/status', KeysError, { maxBytes: 64 })).toThrow(
      new KeysError('/proc/self/status', '', 'too large: more than 64 bytes; expected at most 64 bytes'),
    );
    expect(readUserFile('/proc/self/status', KeysError).length).toBeGreaterThan(64);
  });

  it('stops once the time limit has passed', () => {
    const file = join(freshFolder(), 'keys.yaml');
    writeFileSync(file, 'keys: [sk-a]\n');
    expect(() => readUserFile(file, KeysError, { timeLimitMs: 0 })).toThrow(new KeysError(file, '', 'reading took 0 s or longer; expected a regular file on a local disk'));
  });
});

describe('the mockrouter command names the flag and the file, and exits 1 at once', () => {
  /** Runs the command; resolves its exit code and stderr, or `null` if it has not exited within 15 s (then killed). */
  async function runCli(args: string[]): Promise<{ code: number | null; stderr: string } | null> {
    const child = spawn(process.execPath, [CLI_BIN, '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
    // Only a fault reaches this bound: a start-up that hangs (a FIFO) or reads without end (/dev/zero).
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const result = await exited;
    clearTimeout(timer);
    return result.code === null ? null : { ...result, stderr };
  }

  const fixtures = (bad: Bad) => {
    const [dir, file] = badFile(bad, 'models.json');
    return { args: ['--fixtures', dir], file, problem: problemOf(bad, 'a JSON file') };
  };
  const cases: [string, () => { args: string[]; file: string; problem: [string, string] }][] = [
    ...BAD_FILES.map((bad): [string, () => { args: string[]; file: string; problem: [string, string] }] => [`--keys <${bad}>`, () => {
      const [, file] = badFile(bad);
      return { args: ['--keys', file], file, problem: problemOf(bad) };
    }]),
    ['--keys /dev/zero', () => ({ args: ['--keys', '/dev/zero'], file: '/dev/zero', problem: problemOf('device') })],
    ...BAD_FILES.map((bad): [string, () => { args: string[]; file: string; problem: [string, string] }] => [`--scenario <${bad}>`, () => {
      const [, file] = badFile(bad);
      return { args: ['--scenario', file], file, problem: problemOf(bad) };
    }]),
    ['--scenario /dev/zero', () => ({ args: ['--scenario', '/dev/zero'], file: '/dev/zero', problem: problemOf('device') })],
    ['--scenarios <dir with a fifo>', () => {
      const [dir, file] = badFile('fifo');
      return { args: ['--scenarios', dir], file, problem: problemOf('fifo') };
    }],
    ['--scenarios <dir with a bomb>', () => {
      const [dir, file] = badFile('bomb');
      return { args: ['--scenarios', dir], file, problem: problemOf('bomb') };
    }],
    ['--scenarios /dev/zero', () => ({ args: ['--scenarios', '/dev/zero'], file: '/dev/zero', problem: ['', 'not a folder (a character device); expected a folder of JSON or YAML scenario files'] })],
    ['--fixtures <dir with models.json a fifo>', () => fixtures('fifo')],
    ['--fixtures <dir with a big models.json>', () => fixtures('big')],
    ['--fixtures /dev/zero', () => ({ args: ['--fixtures', '/dev/zero'], file: '/dev/zero', problem: ['', 'not a folder (a character device); expected a folder holding models.json and generations.json'] })],
  ];

  let made: ReturnType<(typeof cases)[number][1]>[] = [];
  beforeAll(() => {
    made = cases.map(([, make]) => make());
  });

  it.for(cases.map(([name], i) => [name, i] as const))('%s', async ([, i]) => {
    const { args, file, problem } = made[i]!;
    const result = await runCli(args);
    const flag = args[0]!;
    const [location, text] = problem;
    expect(result).toEqual({ code: 1, stderr: `mockrouter: ${flag} ${file}: ${location ? `${location}: ` : ''}${text}\n` });
  });
});
