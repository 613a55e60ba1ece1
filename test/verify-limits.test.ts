/**
 * `mockrouter verify` against hostile upstreams: an endless body, a gzip bomb, a body nested 50,000 deep, a body
 * that stalls, one that breaks off, one whose gzip is no gzip, bodies too wide to compare, and a gateway slow enough
 * to pass the whole check's deadline. Each is a `node:http` server on 127.0.0.1 written here; the command runs as a
 * user runs it (`verifyCommand()` of `dist/` in a child process), and must end with exit code 2, the
 * probe named in the report and on stderr, in bounded time and (for the bodies with no end) bounded memory.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, MAX_ANSWER_DEPTH, MAX_ANSWER_ITEMS } from '../src/verify/answer-body.js';
import { jsonExtentOf } from '../src/core/base/json-depth.js';
import { verifyGateway } from '../src/verify/index.js';
import { MAX_SHAPE_CHARS, MAX_SHAPE_ENTRIES } from '../src/verify/shape.js';
import { listenLocally, type LocalServer } from './support/local-server.js';

/** The items of `text` as `jsonExtentOf` counts them, with no depth limit. */
const jsonItemsOf = (text: string, limit: number): number => jsonExtentOf(text, { depth: Infinity, items: limit }).items;

/** The key the tests hand to verify; it must never be printed. */
const KEY = 'sk-or-v1-verify-limits-5d1e07b3a2';
/** The command's module as built in `dist/` (`npm test` builds first, as for the CLI's other tests), run in the child. */
const COMMAND_MODULE = new URL('../dist/cli/verify-command.js', import.meta.url).pathname;
/**
 * The child's program: the `verify` command's action with the arguments after `--`; on exit it writes its peak
 * resident memory (`maxRSS`, KiB) to file descriptor 3.
 */
const CHILD_PROGRAM = `
import { writeSync } from 'node:fs';
process.on('exit', () => writeSync(3, String(process.resourceUsage().maxRSS)));
const { verifyCommand } = await import(${JSON.stringify(COMMAND_MODULE)});
await verifyCommand().parseAsync(process.argv.slice(1), { from: 'user' });
`;
/** Upper bound for one child run: a fault (no bound at all) runs until it is killed here. */
const KILL_AFTER_MS = 90_000;
/** The child is killed as soon as its resident memory passes this (a fault: the unbounded read would fill the machine). */
const KILL_ABOVE_KIB = 1536 * 1024;
/** What a bounded run may take at most, on a loaded machine. */
const BOUNDED_MS = 45_000;
/** What a bounded run may hold at most: the body cap (32 MiB) a few times over, above Node.js. */
const BOUNDED_KIB = 400 * 1024;
const SLOW_TEST_MS = 120_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time of the child, ms. */
  readonly ms: number;
  /** The child's peak resident memory, KiB: what it reported on exit, or the highest VmHWM seen while it ran. */
  readonly peakKiB: number;
  /** Whether it was killed here (too slow or too big). */
  readonly killed: boolean;
}

/** The peak resident memory of process `pid` so far (`VmHWM`, KiB), or 0 where `/proc` is not there. */
function vmHwmOf(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Runs `mockrouter verify --upstream <url> <args>` (the build in `dist/`), with the key, watching its memory. */
async function runVerify(url: string, args: string[] = []): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD_PROGRAM, '--', '--upstream', url, ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, OPENROUTER_API_KEY: KEY },
  });
  let stdout = '';
  let stderr = '';
  let reported = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (reported += chunk.toString('utf8')));
  let polled = 0;
  let killed = false;
  const kill = () => {
    killed = true;
    child.kill('SIGKILL');
  };
  const watch = setInterval(() => {
    polled = Math.max(polled, vmHwmOf(child.pid!));
    if (polled > KILL_ABOVE_KIB) kill();
  }, 50);
  const timer = setTimeout(kill, KILL_AFTER_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(watch);
  clearTimeout(timer);
  return { code, stdout, stderr, ms: Date.now() - started, peakKiB: Math.max(polled, Number(reported) || 0), killed };
}

/** A stopped run, as it must end: exit 2, the probe marked ERROR with `code`, named on stderr, no stack, no key. */
function expectStoppedAt(run: Run, probe: string, code: string): void {
  expect(run.killed, `killed after ${run.ms} ms at ${run.peakKiB} KiB`).toBe(false);
  expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toMatch(new RegExp(`^  ERROR ${probe} `, 'm'));
  expect(run.stdout).toContain(`Stopped at ${probe} (${code})`);
  expect(run.stderr).toMatch(new RegExp(`^mockrouter verify: ${probe}: `, 'm'));
  expect(run.stdout + run.stderr).not.toContain(KEY);
  expect(run.ms).toBeLessThan(BOUNDED_MS);
}

/** A hostile upstream: `handle` answers every request. */
async function startUpstream(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<LocalServer> {
  const server: Server = createServer(handle);
  return listenLocally(server);
}

/** Runs `body` with a hostile upstream, closed after. */
async function withUpstream<T>(handle: (request: IncomingMessage, response: ServerResponse) => void, body: (url: string) => Promise<T>): Promise<T> {
  const upstream = await startUpstream(handle);
  try {
    return await body(upstream.url);
  } finally {
    await upstream.close();
  }
}

/** A JSON body that never ends: `{"data":"aaaa...`, written as fast as the client reads, until it hangs up. */
function endless(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"data":"');
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on('drain', pump);
  pump();
}

/**
 * A gzip bomb, made here: one gzip member of 16 MiB of zeros (16 KB), 256 times over (gzip allows members one after
 * another): about 4 MB on the wire, 4 GiB decoded.
 */
function gzipBomb(): (request: IncomingMessage, response: ServerResponse) => void {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024));
  const members = 256;
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(member.length * members) });
    let sent = 0;
    const pump = () => {
      while (!response.destroyed && sent < members) {
        sent++;
        if (!response.write(member)) return;
      }
      if (sent === members) response.end();
    };
    response.on('drain', pump);
    pump();
  };
}

/** A JSON answer of `text`. */
function json(text: string): (request: IncomingMessage, response: ServerResponse) => void {
  const body = Buffer.from(text);
  return (_request, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body);
}

/** The headers and the start of a JSON body, then nothing more (the connection stays open). */
function stalled(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  response.write('{"data":[');
}

describe('verify against hostile upstreams (exit 2, the probe named, bounded time and memory)', () => {
  it('an endless body: stops reading past 32 MiB', async () => {
    const run = await withUpstream(endless, (url) => runVerify(url));
    console.log(`verify, endless body: peak RSS ${Math.round(run.peakKiB / 1024)} MB, ${run.ms} ms`);
    expectStoppedAt(run, 'models', 'E_VERIFY_ANSWER_TOO_BIG');
    expect(run.stdout).toContain(`is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB: stopped reading it`);
    expect(run.peakKiB).toBeGreaterThan(0);
    expect(run.peakKiB).toBeLessThan(BOUNDED_KIB);
  }, SLOW_TEST_MS);

  it('a gzip bomb (4 MB, 4 GiB decoded): counts the decoded bytes and stops past 32 MiB', async () => {
    const run = await withUpstream(gzipBomb(), (url) => runVerify(url, ['--json']));
    console.log(`verify, gzip bomb: peak RSS ${Math.round(run.peakKiB / 1024)} MB, ${run.ms} ms`);
    expect(run.killed, `killed after ${run.ms} ms at ${run.peakKiB} KiB`).toBe(false);
    expect(run.code, run.stderr).toBe(2);
    const report = JSON.parse(run.stdout) as { drift: boolean; error: { probe: string; code: string; message: string } };
    expect(report.error).toMatchObject({ probe: 'models', code: 'E_VERIFY_ANSWER_TOO_BIG' });
    expect(report.error.message).toContain('once decoded (Content-Encoding: gzip)');
    expect(run.stderr).toMatch(/^mockrouter verify: models: .*larger than 32 MiB once decoded/m);
    expect(run.ms).toBeLessThan(BOUNDED_MS);
    expect(run.peakKiB).toBeLessThan(BOUNDED_KIB);
  }, SLOW_TEST_MS);

  it('a body nested 50,000 deep: refused before it is parsed or compared', async () => {
    const run = await withUpstream(json(`${'['.repeat(50_000)}${']'.repeat(50_000)}`), (url) => runVerify(url));
    expectStoppedAt(run, 'models', 'E_VERIFY_ANSWER_TOO_DEEP');
    expect(run.stdout).toContain(`nests arrays and objects deeper than ${MAX_ANSWER_DEPTH} levels`);
  }, SLOW_TEST_MS);

  it('a body that stalls: stops at --timeout', async () => {
    const run = await withUpstream(stalled, (url) => runVerify(url, ['--timeout', '1500']));
    expectStoppedAt(run, 'models', 'E_VERIFY_ANSWER_TIMEOUT');
    expect(run.stdout).toContain('was not whole within 1500 ms (--timeout)');
    expect(run.ms).toBeGreaterThanOrEqual(1500);
  }, SLOW_TEST_MS);

  it('a body that breaks off, and one whose gzip is no gzip: unreadable', async () => {
    const cut = await withUpstream(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"data":[', () => response.destroy());
      },
      (url) => runVerify(url),
    );
    expectStoppedAt(cut, 'models', 'E_VERIFY_ANSWER_UNREADABLE');

    const badGzip = await withUpstream(
      (_request, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('{"data":[] but not gzip}'),
      (url) => runVerify(url),
    );
    expectStoppedAt(badGzip, 'models', 'E_VERIFY_ANSWER_UNREADABLE');
    expect(badGzip.stdout).toContain('could not be read (Content-Encoding: gzip)');
  }, SLOW_TEST_MS);

  it('a gateway too slow for --deadline: the whole check stops there, keeping what it compared', async () => {
    // The model list comes at once; every later answer would take a minute, well within --timeout (10 minutes).
    const slow = (request: IncomingMessage, response: ServerResponse) => {
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
      if (request.url!.startsWith('/api/v1/models?')) return answer();
      const timer = setTimeout(answer, 60_000);
      response.on('close', () => clearTimeout(timer));
    };
    const run = await withUpstream(slow, (url) => runVerify(url, ['--timeout', '600000', '--deadline', '4000']));
    expectStoppedAt(run, 'models-count', 'E_VERIFY_DEADLINE');
    expect(run.stdout).toMatch(/^ {2}\S+ +models +GET \/api\/v1\/models\?output_modalities=speech {2}upstream 200, mockrouter 200/m);
    expect(run.stdout).toContain("the check's deadline of 4000 ms (--deadline) passed");
    expect(run.stdout).not.toMatch(/ key +GET/);
  }, SLOW_TEST_MS);

  it('documents the limits and the deadline in --help', async () => {
    const run = await runVerify('http://127.0.0.1:9', ['--help']);
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--deadline <ms> time for the whole check, ms (exit 2 when it passes) (default: 120000)');
    expect(help).toContain('at most 32 MiB of body once its Content-Encoding (gzip, deflate, br) is decoded');
    expect(help).toContain(`a JSON body may nest ${MAX_ANSWER_DEPTH} levels deep and hold ${MAX_ANSWER_ITEMS} array elements and object fields`);
    expect(help).toContain(`one probe's answers may have ${MAX_SHAPE_ENTRIES} JSON paths and enum values together, of ${MAX_SHAPE_CHARS} characters`);
    expect(help).toContain('The whole check gets --deadline (default 120 s)');
  }, SLOW_TEST_MS);
});

describe('verify against answers too wide to compare (the engine)', () => {
  it(`refuses a body of more than ${MAX_ANSWER_ITEMS} elements and fields before parsing it`, async () => {
    const text = `[${Array.from({ length: MAX_ANSWER_ITEMS + 1 }, () => '{}').join(',')}]`;
    expect(jsonItemsOf(text, MAX_ANSWER_ITEMS)).toBe(MAX_ANSWER_ITEMS + 1);
    expect(jsonItemsOf('{"a":[1,2],"b,[{":{}}', 100)).toBe(5);
    const report = await withUpstream(json(text), (url) => verifyGateway({ upstream: url, apiKey: KEY }));
    expect(report.error).toMatchObject({ probe: 'models', code: 'E_VERIFY_ANSWER_TOO_BIG' });
    expect(report.error!.message).toContain(`holds more than ${MAX_ANSWER_ITEMS} array elements and object fields`);
  }, SLOW_TEST_MS);

  it(`stops a probe whose answers have more than ${MAX_SHAPE_ENTRIES} paths and enum values, or ${MAX_SHAPE_CHARS} characters of them`, async () => {
    const wide = JSON.stringify({ data: Object.fromEntries(Array.from({ length: MAX_SHAPE_ENTRIES + 1 }, (_, i) => [`field_${i}`, i])) });
    const report = await withUpstream(json(wide), (url) => verifyGateway({ upstream: url, apiKey: KEY }));
    expect(report.error).toMatchObject({ probe: 'models', code: 'E_VERIFY_ANSWER_TOO_WIDE' });
    expect(report.probes).toEqual([
      { probe: 'models', request: 'GET /api/v1/models?output_modalities=speech', upstream: 200, mockrouter: 200, compared: false, note: report.error!.message, error: 'E_VERIFY_ANSWER_TOO_WIDE' },
    ]);
    // The probe's shapes held part of the answer: nothing of it is compared.
    expect(report.differences).toEqual([]);

    // Two fields whose names hold more characters than a shape takes.
    const long = JSON.stringify({ data: { [`a${'x'.repeat(MAX_SHAPE_CHARS / 2)}`]: 1, [`b${'x'.repeat(MAX_SHAPE_CHARS / 2)}`]: 2 } });
    const longReport = await withUpstream(json(long), (url) => verifyGateway({ upstream: url, apiKey: KEY }));
    expect(longReport.error).toMatchObject({ probe: 'models', code: 'E_VERIFY_ANSWER_TOO_WIDE' });
    expect(longReport.error!.message).toContain(`or more than ${MAX_SHAPE_CHARS} characters of them`);
  }, SLOW_TEST_MS);
});
