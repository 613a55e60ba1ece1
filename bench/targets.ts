/**
 * The servers the HTTP bench hits (mockrouter, the bare replay, aimock) and the other child processes, all
 * bound to 127.0.0.1, so the load generator (this process) never shares an event loop with a server.
 *
 * Every child is registered here and killed by {@link stopAll}, and synchronously (SIGKILL) when this
 * process exits for any reason. A child also exits by itself when this process dies without cleaning up:
 * the mock watches its stdin pipe (see {@link EXIT_WITH_PARENT}), the others their IPC channel.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MOCK_BIN = fileURLToPath(new URL('../bin/mockrouter.js', import.meta.url));
/** aimock's own CLI (the package's `aimock` bin), run with node directly so its pid is the server's. */
const AIMOCK_CLI = fileURLToPath(new URL('../node_modules/@copilotkit/aimock/dist/aimock-cli.js', import.meta.url));
/** aimock's config: one chat fixture for `openai/gpt-4o-mini`, so its model list holds that one model. */
const AIMOCK_CONFIG = fileURLToPath(new URL('./aimock/aimock.json', import.meta.url));

/** One plain request (method, path and query, headers, body). */
export interface BenchRequest {
  method: 'GET' | 'POST';
  /** Path and query under the origin. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Child processes

const children = new Set<ChildProcess>();

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

process.on('exit', () => {
  for (const child of children) if (!exited(child)) child.kill('SIGKILL');
});

/** Spawns a registered child (`node <args>`); it leaves the registry when it exits. */
export function spawnChild(args: string[], options: { ipc?: boolean; execArgv?: string[] } = {}): ChildProcess {
  const child = spawn(process.execPath, [...(options.execArgv ?? []), ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Stops one child: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (exited(child)) return;
  const gone = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** Stops every child still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

/** Collects a child's stdout and stderr, for results and error messages. */
function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (err += s));
  return { stdout: () => out, stderr: () => err };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

/**
 * CPU time (user + system, all threads) a process has used so far, in ms, from `/proc/<pid>/stat`; `null`
 * where there is no procfs (macOS, Windows). Resolution 10 ms.
 */
export function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name "(...)": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/** Resolves with the first match of `pattern` on the child's stdout; rejects if it exits or times out first. */
export function waitForLine(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  const output = collect(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${what}: no ready line after ${timeoutMs} ms\n${output.stderr()}`)), timeoutMs);
    const onData = () => {
      const match = output.stdout().match(pattern);
      if (match) finish(null, match);
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`${what} exited before it was ready (code ${code}, signal ${signal})\n${output.stderr()}`));
    function finish(error: Error | null, match?: RegExpMatchArray) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match!);
    }
    child.stdout?.on('data', onData);
    child.on('exit', onExit);
  });
}

/**
 * Preloaded into the mock (a `data:` module, so bin/mockrouter.js runs unchanged): exit when the stdin pipe
 * from this process closes, i.e. when this process is gone. Idle otherwise; it costs the server nothing.
 */
export const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent("process.stdin.on('end', () => process.exit(0)).resume();")}`;

/** A server under test. */
export interface Target {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  child: ChildProcess;
}

/**
 * Starts the standalone mock as the user would: `node bin/mockrouter.js --port 0 --quiet` (seed 1, 127.0.0.1).
 * `execArgv` go to node before the script (e.g. `--cpu-prof`); `args` to the CLI after its own (e.g.
 * `['--store', 'redis://127.0.0.1:6379', '--workers', '2']`). With `--workers`, `child` is the primary process (the
 * workers are its children).
 */
export async function startMock(execArgv: string[] = [], args: string[] = []): Promise<Target> {
  const child = spawnChild([MOCK_BIN, '--port', '0', '--host', '127.0.0.1', '--seed', '1', '--quiet', ...args], { execArgv: ['--import', EXIT_WITH_PARENT, ...execArgv] });
  const match = await waitForLine(child, /mockrouter listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/, 'mockrouter');
  return { origin: match[1]!, child };
}

/**
 * Starts `@copilotkit/aimock` as its README says (`aimock --config <file> --port 0`), on 127.0.0.1, with
 * bench/aimock/aimock.json: logging off, one chat fixture for `openai/gpt-4o-mini`.
 */
export async function startAimock(): Promise<Target> {
  const child = spawnChild([AIMOCK_CLI, '--config', AIMOCK_CONFIG, '--port', '0', '--host', '127.0.0.1'], { execArgv: ['--import', EXIT_WITH_PARENT] });
  const match = await waitForLine(child, /aimock server listening on (http:\/\/127\.0\.0\.1:\d+)/, 'aimock');
  return { origin: match[1]!, child };
}

/**
 * Starts bench/lamejs-server.ts, the cold-MP3 baseline (whole render, lamejs encoding), as the mock is started:
 * its own process on 127.0.0.1, exiting with this one.
 */
export async function startLamejs(): Promise<Target> {
  const child = spawnChild([fileURLToPath(new URL('./lamejs-server.ts', import.meta.url))], { execArgv: ['--import', 'tsx', '--import', EXIT_WITH_PARENT] });
  const match = await waitForLine(child, /lamejs server listening on (http:\/\/127\.0\.0\.1:\d+)/, 'lamejs server');
  return { origin: match[1]!, child };
}

/** The response the bare server replays: captured from the mock, framing headers removed. */
export interface Recorded {
  status: number;
  /** Flat raw header list `[name, value, name, value, ...]`, as the mock wrote them (case kept). */
  headers: string[];
  body: Buffer;
  /** Chunk size when the mock streamed the body (chunked transfer encoding), else `null` (`Content-Length`). */
  chunkSize: number | null;
}

/** A {@link Recorded} as sent over IPC (body in base64). */
export type WireRecorded = Omit<Recorded, 'body'> & { body: string };

/** Messages between this process and bench/bare-server.ts. */
export type BareMessage =
  | { type: 'ready'; port: number }
  | { type: 'serve'; response: WireRecorded; routes?: Record<string, WireRecorded> }
  | { type: 'serving' };

/** The bare `node:http` server (bench/bare-server.ts), plus a way to change the responses it replays. */
export interface BareTarget extends Target {
  /**
   * Replays `response`; with `routes`, a request whose `X-Bench-Case` header names a route gets that route's
   * response instead.
   */
  serve(response: Recorded, routes?: Record<string, Recorded>): Promise<void>;
}

const toWire = (r: Recorded): WireRecorded => ({ ...r, body: r.body.toString('base64') });

/** Starts bench/bare-server.ts; `execArgv` go to node before the script (e.g. `--cpu-prof`). */
export async function startBare(execArgv: string[] = []): Promise<BareTarget> {
  const child = spawnChild([fileURLToPath(new URL('./bare-server.ts', import.meta.url))], { ipc: true, execArgv: ['--import', 'tsx', ...execArgv] });
  const output = collect(child);
  const ready = await nextMessage(child, 'ready', output.stderr);
  return {
    origin: `http://127.0.0.1:${ready.port}`,
    child,
    async serve(response, routes) {
      const reply = nextMessage(child, 'serving', output.stderr);
      const wireRoutes = routes === undefined ? undefined : Object.fromEntries(Object.entries(routes).map(([key, r]) => [key, toWire(r)]));
      child.send({ type: 'serve', response: toWire(response), ...(wireRoutes ? { routes: wireRoutes } : {}) } satisfies BareMessage);
      await reply;
    },
  };
}

function nextMessage<T extends BareMessage['type']>(
  child: ChildProcess,
  type: T,
  stderr: () => string,
): Promise<Extract<BareMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`bare server: no "${type}" message after 15 s\n${stderr()}`)), 15_000);
    const onMessage = (message: BareMessage) => {
      if (message.type === type) finish(null, message as Extract<BareMessage, { type: T }>);
    };
    const onExit = (code: number | null) => finish(new Error(`bare server exited (code ${code})\n${stderr()}`));
    function finish(error: Error | null, message?: Extract<BareMessage, { type: T }>) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Runs a script to completion in a fresh `node --import tsx` process and returns its stdout. */
export async function runScript(file: string, args: string[]): Promise<string> {
  const child = spawnChild(['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url)), ...args], { ipc: true });
  const output = collect(child);
  const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
  if (code !== 0) throw new Error(`${file} ${args.join(' ')} failed (code ${code}, signal ${signal})\n${output.stderr()}`);
  return output.stdout();
}
