/**
 * The `mockrouter` command as a user runs it: `bin/mockrouter.js` (the compiled CLI; `npm test` builds first).
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';
import { CLI_BIN, runCli, watchProcess, type Cli, type CliProcess } from './support/cli.js';

const READY = /^mockrouter listening on (http:\/\/127\.0\.0\.1:(\d+)\/api\/v1)$/m;
/** The second line of the ready output: where the dashboard is (when the admin API is on). */
const DASHBOARD = /^dashboard: /;
/** Request log lines: stdout without the two ready lines. */
const logLines = (stdout: string) => stdout.trim().split('\n').filter((l) => !READY.test(l) && !DASHBOARD.test(l));

/** The processes a test started, killed after it (whatever it left running). */
const running: CliProcess[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL');
});

/** `runCli` (`test/support/cli.ts`), killed after the test. */
function run(args: string[]): Cli {
  const cli = runCli(args);
  running.push(cli);
  return cli;
}

async function ready(cli: CliProcess): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const match = READY.exec(cli.stdout());
    if (match) return match[1]!;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ready line; stdout: ${cli.stdout()} stderr: ${cli.stderr()}`);
}

describe('mockrouter CLI', () => {
  it('prints the base URL once, logs one line per request, and exits 0 on SIGTERM', async () => {
    const cli = run(['--port', '0', '--seed', '3']);
    const baseUrl = await ready(cli);
    const res = await fetch(`${baseUrl}/model/openai/gpt-4o`, { headers: { Authorization: 'Bearer sk-secret-key' } });
    expect(res.status).toBe(200);
    await fetch(`${baseUrl}/generation?id=nothing`, { headers: { Authorization: 'Bearer sk-secret-key' } });
    await new Promise((r) => setTimeout(r, 100));
    const lines = cli.stdout().trim().split('\n');
    expect(lines.filter((l) => READY.test(l))).toHaveLength(1);
    // The ready line comes first, then the dashboard's URL.
    expect(lines[0]).toMatch(READY);
    expect(lines[1]).toBe(`dashboard: ${new URL(baseUrl).origin}/__mock/ui`);
    const logs = logLines(cli.stdout()).map((l) => JSON.parse(l));
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ method: 'GET', url: '/api/v1/model/openai/gpt-4o', status: 200 });
    expect(logs[1]).toMatchObject({ status: 404 });
    expect(cli.stdout()).not.toContain('sk-secret-key');
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(cli.stderr()).toBe('');
  });

  it('names the applied scenario rule and the generation id in the log line', async () => {
    const cli = run(['--port', '0']);
    const baseUrl = await ready(cli);
    const headers = { Authorization: 'Bearer k', 'Content-Type': 'application/json' };
    const speech = await postSpeech(baseUrl, { model: TTS, input: 'Hi.', voice: 'alloy' }, headers);
    const id = speech.headers.get('x-generation-id');
    await speech.arrayBuffer();
    await (await fetch(`${baseUrl}/model/openai/gpt-4o`, { headers: { ...headers, 'X-Mock-Scenario': 'rate-limited' } })).arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
    const logs = logLines(cli.stdout()).map((l) => JSON.parse(l));
    expect(id).toMatch(/^gen-tts-/);
    expect(logs[0]).toMatchObject({ method: 'POST', status: 200, generation_id: id });
    expect(logs[0]).not.toHaveProperty('scenario');
    expect(logs[1]).toMatchObject({ status: 429, scenario: 'rate-limited/rate-limited' });
    expect(logs[1]).not.toHaveProperty('generation_id');
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('logs nothing per request with --quiet', async () => {
    const cli = run(['--port', '0', '--quiet']);
    const baseUrl = await ready(cli);
    await fetch(`${baseUrl}/model/openai/gpt-4o`, { headers: { Authorization: 'Bearer k' } });
    cli.child.kill('SIGINT');
    expect(await cli.exit).toBe(0);
    expect(cli.stdout().trim().split('\n')).toHaveLength(2);
    expect(logLines(cli.stdout())).toEqual([]);
  });

  it('says the dashboard needs ?token= with --admin-token (never printing the token), and prints no dashboard with --no-admin', async () => {
    const guarded = run(['--port', '0', '--quiet', '--admin-token', 'sekrit-token']);
    const baseUrl = await ready(guarded);
    await new Promise((r) => setTimeout(r, 50));
    expect(guarded.stdout().trim().split('\n')[1]).toBe(`dashboard: ${new URL(baseUrl).origin}/__mock/ui (needs ?token=<admin token> once)`);
    expect(guarded.stdout() + guarded.stderr()).not.toContain('sekrit-token');
    guarded.child.kill('SIGTERM');
    expect(await guarded.exit).toBe(0);
    const off = run(['--port', '0', '--quiet', '--no-admin']);
    await ready(off);
    await new Promise((r) => setTimeout(r, 50));
    expect(off.stdout().trim().split('\n')).toHaveLength(1);
    off.child.kill('SIGTERM');
    expect(await off.exit).toBe(0);
  });

  it('answers the admin API for the hosts of --allowed-hosts only', async () => {
    const cli = run(['--port', '0', '--quiet', '--allowed-hosts', 'mock.internal']);
    const baseUrl = await ready(cli);
    const { port } = new URL(baseUrl);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/__mock/requests', headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status(`mock.internal:${port}`)).toBe(200);
    expect(await status('evil.example')).toBe(403);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('reports a port in use in one line, no stack trace', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      const cli = run(['--port', String(port)]);
      expect(await cli.exit).toBe(1);
      expect(cli.stderr().trim()).toBe(`mockrouter: port ${port} on 127.0.0.1 is already in use (use --port 0 for a free port)`);
    } finally {
      blocker.close();
    }
  });

  it.each([
    [['--port', 'abc'], /^mockrouter: option '-p, --port <port>' argument 'abc' is invalid\. expected an integer from 0 to 65535, got "abc"/],
    [['--seed', '1.5'], /--seed.*expected an integer/],
    [['--fixtures', '/nonexistent-dir'], /^mockrouter: --fixtures \/nonexistent-dir: folder not found$/m],
    [['--bogus'], /^mockrouter: unknown option '--bogus'/],
    [['--generation-delay', 'fast'], /--generation-delay.*expected a whole number of ms from 0 to 3600000, or "realistic", got "fast"/],
    [['--scenario', 'nope'], /^mockrouter: --scenario: unknown scenario "nope"; loaded scenarios: bad-gateway, /],
    [['--cors', 'localhost:5173'], /--cors <origins>.*expected "\*" or origins scheme:\/\/host\[:port\] separated by commas, such as http:\/\/localhost:5173,https:\/\/app\.example; got "localhost:5173"/],
    [['--cors', 'http://localhost:5173/app,*'], /--cors <origins>.*got "http:\/\/localhost:5173\/app"/],
    [['--allowed-hosts', 'http://mock.internal'], /--allowed-hosts <hosts>.*expected "all" or hosts separated by commas: .*got "http:\/\/mock\.internal"/],
    [['--flite-wasm', '/nonexistent/flite.wasm'], /^mockrouter: --flite-wasm: cannot read \/nonexistent\/flite\.wasm: no such file$/m],
    [['--speech', 'words', '--flite-wasm', new URL('../package.json', import.meta.url).pathname], /^mockrouter: --flite-wasm: \S+package\.json is not a WebAssembly file/m],
    [['--words-threads', '1.5'], /--words-threads <n>.*expected an integer from 0 to 1000000, got "1\.5"/],
  ])('fails at startup on bad flags: %j', async (args, message) => {
    const cli = run(args);
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toMatch(message);
    expect(cli.stderr()).toMatch(/^mockrouter: /);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it('lists every problem of a bad fixtures file, one per line, after the first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-cli-fixtures-'));
    try {
      const fixtures = new URL('../fixtures/', import.meta.url);
      const models = JSON.parse(readFileSync(new URL('models.json', fixtures), 'utf8')) as { models: Record<string, unknown>[] };
      delete models.models[0]!.id;
      (models.models[1]!.pricing as Record<string, unknown>).prompt = 3;
      models.models[3]!.context_length = 'x';
      writeFileSync(join(dir, 'models.json'), JSON.stringify(models));
      writeFileSync(join(dir, 'generations.json'), readFileSync(new URL('generations.json', fixtures)));
      const cli = run(['--fixtures', dir]);
      expect(await cli.exit).toBe(1);
      const file = join(dir, 'models.json');
      expect(cli.stderr().trimEnd().split('\n')).toEqual([
        `mockrouter: --fixtures ${file}: models[0].id: required key is missing (expected string) (and 2 more problems)`,
        `  ${file}: models[1].pricing.prompt: expected string, received number`,
        `  ${file}: models[3].context_length: expected number, received string`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists at most 20 more problems of a bad file, then says how many it left out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-cli-fixtures-'));
    try {
      const fixtures = new URL('../fixtures/', import.meta.url);
      const models = JSON.parse(readFileSync(new URL('models.json', fixtures), 'utf8')) as { models: unknown[] };
      models.models = models.models.map(() => ({}));
      writeFileSync(join(dir, 'models.json'), JSON.stringify(models));
      writeFileSync(join(dir, 'generations.json'), readFileSync(new URL('generations.json', fixtures)));
      const cli = run(['--fixtures', dir]);
      expect(await cli.exit).toBe(1);
      const lines = cli.stderr().trimEnd().split('\n');
      const others = Number(/\(and (\d+) more problems\)$/.exec(lines[0]!)![1]);
      expect(others).toBeGreaterThan(40);
      expect(lines).toHaveLength(22);
      expect(lines.slice(1, 21).every((line) => line.startsWith(`  ${join(dir, 'models.json')}: models[`))).toBe(true);
      expect(lines[21]).toBe(`  (${others - 20} more not shown)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * Starts the CLI as npm does (a shell between), prints its pid, then kills the shell as npm's own exit leaves it:
   * the CLI is orphaned. Resolves whether the CLI was still running `waitMs` later (it is then killed), and its stderr.
   */
  async function orphan(npmCommand: string | undefined, waitMs: number, args: string[] = []): Promise<{ alive: boolean; stderr: string }> {
    const env = { ...process.env };
    delete env.npm_command;
    if (npmCommand !== undefined) env.npm_command = npmCommand;
    const command = `"${process.execPath}" "${CLI_BIN}" --port 0 --quiet ${args.join(' ')} & echo "pid $!"; wait`;
    const shell = spawn('sh', ['-c', command], { stdio: 'pipe', env });
    const cli = watchProcess(shell);
    running.push(cli);
    const baseUrl = await ready(cli);
    const pid = Number(/^pid (\d+)$/m.exec(cli.stdout())![1]);
    expect((await fetch(`${new URL(baseUrl).origin}/__mock/health`)).status).toBe(200);
    shell.kill('SIGKILL');
    await cli.exit;
    const running_ = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (const end = Date.now() + waitMs; running_() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    const alive = running_();
    if (alive) process.kill(pid, 'SIGKILL');
    return { alive, stderr: cli.stderr() };
  }

  it('stops when the npm that started it is gone (npx mockrouter & ... kill), saying why', async () => {
    // The parent is checked every 500 ms (src/cli/npm-parent.ts).
    const { alive, stderr } = await orphan('exec', 5000);
    expect(alive).toBe(false);
    expect(stderr).toBe('mockrouter: the npm that started it has exited; stopping (--outlive-npm keeps it running)\n');
  });

  it('keeps running after its parent exits when npm did not start it, or with --outlive-npm', async () => {
    expect((await orphan(undefined, 1500)).alive).toBe(true);
    expect((await orphan('exec', 1500, ['--outlive-npm'])).alive).toBe(true);
  });

  it('stops when stdin ends with --stop-on-stdin-close, saying why, through a shell between too', async () => {
    const direct = run(['--port', '0', '--quiet', '--stop-on-stdin-close']);
    const baseUrl = await direct.ready();
    direct.child.stdin.write('anything written is dropped\n');
    expect((await fetch(`${new URL(baseUrl).origin}/__mock/health`)).status).toBe(200);
    direct.child.stdin.end();
    expect(await direct.exit).toBe(0);
    expect(direct.stderr()).toBe('mockrouter: stdin closed; stopping (--stop-on-stdin-close)\n');

    // A wrapper (npx, a script) hands its stdin on: the pipe this test holds is the server's stdin. (Not `&`: a
    // background command of a shell script reads /dev/null.)
    const command = `"${process.execPath}" "${CLI_BIN}" --port 0 --quiet --stop-on-stdin-close; code=$?; exit $code`;
    const wrapped = watchProcess(spawn('sh', ['-c', command], { stdio: 'pipe' }));
    running.push(wrapped);
    await ready(wrapped);
    wrapped.child.stdin.end();
    expect(await wrapped.exit).toBe(0);
    expect(wrapped.stderr()).toBe('mockrouter: stdin closed; stopping (--stop-on-stdin-close)\n');
  });

  it('keeps running when stdin ends without --stop-on-stdin-close', async () => {
    const cli = run(['--port', '0', '--quiet']);
    const baseUrl = await cli.ready();
    cli.child.stdin.end();
    await new Promise((r) => setTimeout(r, 500));
    expect((await fetch(`${new URL(baseUrl).origin}/__mock/health`)).status).toBe(200);
    expect(cli.child.exitCode).toBeNull();
  });

  it('documents every flag in --help', async () => {
    const cli = run(['--help']);
    expect(await cli.exit).toBe(0);
    for (const flag of ['--port', '--host', '--seed', '--fixtures', '--cors', '--allowed-hosts', '--admin-token', '--quiet', '--outlive-npm', '--stop-on-stdin-close', '--help']) expect(cli.stdout()).toContain(flag);
  });

  it('names every built-in scenario in --help', async () => {
    const cli = run(['--help']);
    expect(await cli.exit).toBe(0);
    const listed = (cli.stdout().split('Built-in scenarios')[1] ?? '').split(':\n')[1] ?? '';
    const files = readdirSync(new URL('../scenarios/', import.meta.url)).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(10);
    expect(listed.trim().split(/[,\s]+/).sort()).toEqual(files.map((f) => f.replace('.yaml', '')).sort());
  });

  it('answers browsers from the origins of --cors, on the API and the admin API', async () => {
    const cli = run(['--port', '0', '--quiet', '--cors', 'http://localhost:5173']);
    const baseUrl = await ready(cli);
    const origin = new URL(baseUrl).origin;
    const preflight = (url: string, from: string) =>
      fetch(url, { method: 'OPTIONS', headers: { Origin: from, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' } });
    const api = await preflight(`${baseUrl}/audio/speech`, 'http://localhost:5173');
    expect(api.status).toBe(204);
    expect(api.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const admin = await preflight(`${origin}/__mock/reset`, 'http://localhost:5173');
    expect(admin.status).toBe(204);
    expect(admin.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const other = await preflight(`${baseUrl}/audio/speech`, 'https://app.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it.each(['--version', '-V'])('prints the package version with %s, and nothing else', async (flag) => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const cli = run([flag]);
    expect(await cli.exit).toBe(0);
    expect(cli.stdout()).toBe(`${version}\n`);
    expect(cli.stderr()).toBe('');
  });

  it('lists --version in --help', async () => {
    const cli = run(['--help']);
    expect(await cli.exit).toBe(0);
    expect(cli.stdout()).toMatch(/-V, --version +show the version/);
  });
});
