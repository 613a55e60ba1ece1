/**
 * The `mockrouter` command with a shared store: `--store`, `--replica-id` and `--workers` as a user runs
 * them, through `bin/mockrouter.js` (the compiled CLI; `npm test` builds first, as for `test/cli.test.ts`).
 *
 * Exact under load: each test waits for a line of output, a process's exit or the journal's content; the time
 * bounds are upper ones only (the store's 10 s connect bound plus a slow start, an exit after SIGTERM).
 */
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type Cli } from './support/cli.js';
import { freePort } from './support/free-port.js';
import { describeWithRedis } from './support/redis.js';

/** The ready line with a store: the base URL, then what is in parentheses. */
const READY = /^mockrouter listening on (http:\/\/127\.0\.0\.1:(\d+)\/api\/v1) \((.*)\)$/m;
/** An unreachable store fails the start within its 10 s connect bound; this leaves room for a slow start only. */
const UNREACHABLE_EXIT_WITHIN_MS = 15_000;
/** Room for a test that waits for the 10 s connect bound. */
const SLOW_TEST_MS = 40_000;

const running: Cli[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) {
    // The primary's workers first: killed with SIGKILL, the primary would leave them to notice it is gone.
    for (const pid of childPids(cli.child.pid!)) kill(pid);
    cli.child.kill('SIGKILL');
  }
});

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** `runCli` (`test/support/cli.ts`), killed after the test with the workers it started. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Cli {
  const cli = runCli(args, env);
  running.push(cli);
  return cli;
}

/** Resolves with the match once stdout (or stderr) has a line matching `pattern`; rejects if the process exits first. */
function waitFor(cli: Cli, pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout'): Promise<RegExpExecArray> {
  const read = stream === 'stdout' ? cli.stdout : cli.stderr;
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(read());
      if (!match) return;
      cli.child[stream].off('data', check);
      resolve(match);
    };
    cli.child[stream].on('data', check);
    check();
    void cli.exit.then((code) => reject(new Error(`exited (${code}) before ${pattern}; stdout: ${cli.stdout()} stderr: ${cli.stderr()}`)));
  });
}

/** The processes whose parent is `pid` (`pgrep -P`): a primary's workers. */
function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** GET `url` on a new connection (no keep-alive: the cluster hands each connection to a worker in turn); its status. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { Authorization: 'Bearer sk-test' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('mockrouter --store and --workers: flags', () => {
  it('refuses --workers above 1 without --store, naming both flags', async () => {
    const cli = run(['--workers', '2', '--port', '0']);
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toBe('mockrouter: --workers 2 needs --store <url>: workers share their state through the store\n');
    expect(cli.stdout()).toBe('');
  });

  it.each([
    [['--workers', '0'], /^mockrouter: option '--workers <n>' argument '0' is invalid\. expected a whole number of processes from 1 to 64, got "0"/],
    [['--workers', '65'], /--workers <n>.*from 1 to 64, got "65"/],
    [['--workers', '1.5'], /--workers <n>.*got "1\.5"/],
    [['--store', 'http://cache:6379'], /--store <url>.*expected a redis:\/\/ or rediss:\/\/ URL \(redis:\/\/host:6379\/0\), got http:\/\/cache:6379/],
    [['--store', 'redis://cache:6379/zero'], /--store <url>.*the database of redis:\/\/cache:6379\/zero must be a whole number/],
    [['--store', 'cache:6379'], /--store <url>.*expected a redis:\/\/ or rediss:\/\/ URL/],
    [['--store-prefix', ''], /--store-prefix <prefix>.*expected a non-empty string/],
    [['--replica-id', ''], /--replica-id <id>.*expected a non-empty string/],
    [['--replica-id', 'pod\n1'], /--replica-id <id>[\s\S]*expected printable characters only/],
    [['--replica-id', 'p'.repeat(201)], /--replica-id <id>.*expected at most 200 characters/],
  ])('fails at startup on a bad store flag: %j', async (args, message) => {
    const cli = run(args);
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toMatch(message);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it('never prints the password of a bad --store URL', async () => {
    const cli = run(['--store', 'http://app:hunter2@cache:6379']);
    expect(await cli.exit).toBe(1);
    // Commander's part of the message quotes the argument too.
    expect(cli.stderr()).toMatch(/^mockrouter: option '--store <url>' argument 'http:\/\/\*\*\*@cache:6379' is invalid\. .*got http:\/\/cache:6379\//);
    expect(cli.stderr()).not.toContain('hunter2');
  });

  it('reads --store from MOCKROUTER_STORE, checked as the flag is', async () => {
    const cli = run(['--port', '0'], { MOCKROUTER_STORE: 'memcached://cache' });
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toMatch(/--store <url>.*got memcached:\/\/cache/);
  });

  it('documents the store flags in --help, with the environment variable of --store', async () => {
    const cli = run(['--help']);
    expect(await cli.exit).toBe(0);
    for (const flag of ['--store <url>', '--store-prefix <prefix>', '--replica-id <id>', '--workers <n>']) expect(cli.stdout()).toContain(flag);
    expect(cli.stdout()).toMatch(/\(env:\s+MOCKROUTER_STORE\)/);
    expect(cli.stdout()).toMatch(/\(default: "mockrouter:"\)/);
  });

  it(
    'exits 1 within 15 s naming the URL, without its password, when nothing answers at --store (alone and with --workers)',
    async () => {
      const port = await freePort();
      const url = `redis://:hunter2@127.0.0.1:${port}`;
      const started = Date.now();
      const alone = run(['--port', '0', '--store', url]);
      const workers = run(['--port', '0', '--workers', '2', '--store', url]);
      const [aloneCode, workersCode] = await Promise.all([alone.exit, workers.exit]);
      expect(Date.now() - started).toBeLessThan(UNREACHABLE_EXIT_WITHIN_MS);
      for (const [cli, code] of [[alone, aloneCode], [workers, workersCode]] as const) {
        expect(code).toBe(1);
        expect(cli.stdout()).toBe('');
        expect(cli.stderr()).toMatch(/^mockrouter: /);
        expect(cli.stderr()).toContain(`127.0.0.1:${port}`);
        expect(cli.stderr()).not.toContain('hunter2');
        // One message, printed by the primary for the first worker that failed.
        expect(cli.stderr().trimEnd().split('\n')).toHaveLength(1);
      }
    },
    SLOW_TEST_MS,
  );
});

describeWithRedis('mockrouter --workers on one store', (redis) => {
  /** Starts `--workers 2` on the store and waits for its ready line; the workers' pids once both listen. */
  async function startWorkers(extra: string[] = []): Promise<{ cli: Cli; baseUrl: string; origin: string; notes: string; workers: number[] }> {
    const cli = run(['--port', '0', '--quiet', '--workers', '2', '--store', redis.url, '--store-prefix', `cli-store-${process.pid}-${Date.now()}:`, ...extra]);
    const [, baseUrl, , notes] = await waitFor(cli, READY);
    await waitFor(cli, /^dashboard: /m);
    const workers = childPids(cli.child.pid!);
    return { cli, baseUrl: baseUrl!, origin: new URL(baseUrl!).origin, notes: notes!, workers };
  }

  it('names the store on the ready line of a single process, and stops on SIGTERM', async () => {
    const cli = run(['--port', '0', '--quiet', '--store', redis.url, '--store-prefix', `cli-store-${process.pid}-alone:`]);
    const [, baseUrl, , notes] = await waitFor(cli, READY);
    expect(notes).toBe(`store ${redis.url}/0`);
    expect(await getOnNewConnection(`${baseUrl}/models`)).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('prints one ready line after both workers listen, answers on the shared port, and stops every worker on SIGTERM', async () => {
    const { cli, baseUrl, origin, notes, workers } = await startWorkers();
    expect(notes).toBe(`2 workers, store ${redis.url}/0`);
    expect(cli.stdout().match(/^mockrouter listening on /gm)).toHaveLength(1);
    expect(cli.stdout()).toContain(`dashboard: ${origin}/__mock/ui\n`);
    expect(workers).toHaveLength(2);
    expect(await getOnNewConnection(`${baseUrl}/models`)).toBe(200);
    expect(await getOnNewConnection(`${origin}/__mock/health`)).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
    expect(cli.stderr()).toBe('');
  });

  it('prints the ready line after a bound, warning of a worker that never listens (stopped in its start-up)', async () => {
    const cli = run(['--port', '0', '--quiet', '--workers', '2', '--store', redis.url, '--store-prefix', `cli-store-${process.pid}-stuck:`], { MOCKROUTER_READY_WAIT_MS: '3000' });
    // Stop the first worker as soon as it exists: it cannot have listened yet (a start-up takes far longer than a poll).
    let stuck: number | undefined;
    for (const end = Date.now() + 15_000; stuck === undefined && Date.now() < end; ) {
      stuck = childPids(cli.child.pid!)[0];
      if (stuck === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(stuck).toBeDefined();
    process.kill(stuck!, 'SIGSTOP');
    try {
      const warning = await waitFor(cli, /^mockrouter: worker ([12]) \(pid (\d+)\) is not listening after 3 s; the others serve$/m, 'stderr');
      expect(Number(warning[2])).toBe(stuck);
      const [, baseUrl, , notes] = await waitFor(cli, READY);
      expect(notes).toBe(`1 of 2 workers, store ${redis.url}/0`);
      expect(await getOnNewConnection(`${baseUrl}/models`)).toBe(200);
    } finally {
      process.kill(stuck!, 'SIGCONT');
    }
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  }, SLOW_TEST_MS);

  it('reports a worker that died, starts another, and keeps answering', async () => {
    const { cli, baseUrl, workers } = await startWorkers();
    const [victim, survivor] = workers as [number, number];
    process.kill(victim, 'SIGKILL');
    await waitFor(cli, new RegExp(`^mockrouter: worker [12] \\(pid ${victim}\\) exited with signal SIGKILL; starting another$`, 'm'), 'stderr');
    // The replacement is running once the primary has two children again (bounded: a start takes about a second).
    let replacement: number | undefined;
    for (const end = Date.now() + 15_000; replacement === undefined && Date.now() < end; ) {
      replacement = childPids(cli.child.pid!).find((pid) => pid !== survivor && pid !== victim);
      if (replacement === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(replacement).toBeDefined();
    for (let i = 0; i < 4; i++) expect(await getOnNewConnection(`${baseUrl}/models`)).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exit).toBe(0);
    expect([survivor, replacement!].filter(alive)).toEqual([]);
  });

  /**
   * Sends requests on new connections until the shared journal holds entries of `want` replicas (the cluster
   * hands connections to the workers in turn, so a few suffice); at most 64.
   */
  async function replicasInJournal(baseUrl: string, origin: string, want: number): Promise<Set<string>> {
    const seen = new Set<string>();
    for (let round = 0; round < 8 && seen.size < want; round++) {
      for (let i = 0; i < 8; i++) expect(await getOnNewConnection(`${baseUrl}/models`)).toBe(200);
      const journal = (await (await fetch(`${origin}/__mock/requests?operation=models`)).json()) as { requests: { replica: string }[] };
      for (const entry of journal.requests) seen.add(entry.replica);
    }
    return seen;
  }

  it('journals each worker under its own replica id, <hostname>:<pid> by default, in one journal', async () => {
    const { cli, baseUrl, origin, workers } = await startWorkers();
    const replicas = await replicasInJournal(baseUrl, origin, 2);
    expect([...replicas].sort()).toEqual(workers.map((pid) => `${hostname()}:${pid}`).sort());
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('names worker k <id>-<k> with --replica-id <id>', async () => {
    const { cli, baseUrl, origin } = await startWorkers(['--replica-id', 'pod-a']);
    const replicas = await replicasInJournal(baseUrl, origin, 2);
    expect([...replicas].sort()).toEqual(['pod-a-1', 'pod-a-2']);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });
});
