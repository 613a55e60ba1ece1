/**
 * A real Redis-protocol store for tests: Debian's `redis-server`, one throwaway process per suite, on
 * 127.0.0.1 and a free port, in a temporary folder, with no persistence (`--save ''`, `--appendonly no`): what it
 * holds dies with it, so a test's state never leaks into the next run.
 *
 * - {@link redisServerBinary}: the server found (`REDIS_SERVER` when set, a path or a command name such as
 *   `valkey-server`; else `redis-server` in /usr/bin or on the PATH), or why none was.
 * - {@link startRedisServer}: one server, ready (it answered `INFO server` with its own process id), with
 *   `stop()`, `kill()` (a crash) and `restart()` (the same port again: "the store comes back").
 * - {@link describeWithRedis}: `describe(title, body)` with a server started before the file's tests and stopped
 *   after them; without `redis-server`, skipped with one visible line locally, failing under `CI` (`.ci/run`
 *   installs Debian's `redis-server` when it is missing).
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { freePort } from './free-port.js';
import { describeMissingTool } from './required-tool.js';

/** A running (or stopped, or killed) `redis-server` of {@link startRedisServer}. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`: what a client (or `--store`) is given. Unchanged by {@link RedisServer.restart}. */
  readonly url: string;
  /** The TCP port on 127.0.0.1, chosen free at start and kept across restarts. */
  readonly port: number;
  /** The temporary folder the server runs in (`--dir`), removed by {@link RedisServer.stop}. */
  readonly dir: string;
  /** Whether the process is running now (false after {@link RedisServer.kill} or {@link RedisServer.stop}). */
  readonly running: boolean;
  /**
   * Ends the server (SIGTERM, then SIGKILL if it has not exited within 5 s), waits for its exit and removes its
   * folder. Idempotent; the server cannot be restarted after it.
   */
  stop(): Promise<void>;
  /**
   * A crash: SIGKILL, and waits for the exit. Clients see their connection reset at once (not a timeout). The
   * data is lost (nothing is persisted); the folder and port are kept for {@link RedisServer.restart}.
   */
  kill(): Promise<void>;
  /**
   * The store comes back: starts a fresh, empty server on the same port (after a SIGTERM when still running) and
   * resolves once it answers. Rejects if the port was taken meanwhile or the server does not answer within
   * 10 s; throws after {@link RedisServer.stop}.
   */
  restart(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /**
   * Extra `redis-server` arguments after the harness's own, as on its command line (for example
   * `['--enable-debug-command', 'local']` to allow `DEBUG SLEEP`, or `['--maxmemory', '1mb']`).
   */
  args?: readonly string[];
}

/** Whether this is a CI run (`CI` set, and not `false` or `0`): the same rule as `test/support/browser.ts`. */

/** How long a start or restart may take before it is a fault: an upper bound only (a busy machine takes ~50 ms). */
const READY_WITHIN_MS = 10_000;
/** How long {@link RedisServer.stop} waits after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 5_000;

/** How to install the server, for skip and failure messages. */
export const INSTALL_HINT = "install Debian's redis-server (apt-get install redis-server) or set REDIS_SERVER to a redis-server or valkey-server";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The server binary to run: `{ path }`, or `{ missing }` saying what was looked for. `REDIS_SERVER` (a path, or a
 * command name looked up on the PATH) wins; else `/usr/bin/redis-server`, then `redis-server` on the PATH.
 */
export const redisServerBinary: { path: string; missing?: undefined } | { path?: undefined; missing: string } = (() => {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const find = (name: string): string | undefined =>
    name.includes('/') ? (executable(name) ? name : undefined) : ['/usr/bin', ...dirs].map((dir) => join(dir, name)).find(executable);
  const chosen = process.env.REDIS_SERVER;
  if (chosen) {
    const path = find(chosen);
    return path ? { path } : { missing: `REDIS_SERVER=${chosen} is not an executable (nor a command on the PATH)` };
  }
  const path = find('redis-server');
  return path ? { path } : { missing: 'no redis-server in /usr/bin or on the PATH' };
})();

/**
 * Resolves true once the server on 127.0.0.1:`port` answers `INFO server` with `process_id:<pid>` (so a server
 * that another process started on that port meanwhile does not count), false if the connection fails, closes, or
 * another process answers.
 */
function answers(port: number, pid: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setEncoding('latin1');
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk: string) => {
      reply += chunk;
      const found = /process_id:(\d+)\r\n/.exec(reply);
      if (found) done(Number(found[1]) === pid);
      else if (reply.startsWith('-') && reply.includes('\r\n')) done(false);
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

/** Every `redis-server` this process started and has not seen exit, killed if the test process exits first. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Spawns `redis-server` on `port` in `dir` and resolves once it answers (see {@link answers}). Rejects (with the server's last
 * output) if it exits first, for example because the port is taken, or does not answer within
 * {@link READY_WITHIN_MS}.
 */
async function spawnReady(binary: string, port: number, dir: string, args: readonly string[]): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', '', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitedEarly = false;
  const early = new Promise<void>((resolve) => child.once('exit', () => {
    exitedEarly = true;
    resolve();
  }));
  child.once('error', (error) => {
    output += `\n${error.message}`;
  });
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (child.pid !== undefined && (await Promise.race([answers(port, child.pid), early.then(() => false)]))) return child;
    if (exitedEarly) throw new Error(`redis-server on port ${port} exited before answering:\n${output.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer within ${READY_WITHIN_MS} ms:\n${output.trim()}`);
    }
    // Not listening yet: the next try once the event loop has turned (a connection refusal is immediate).
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Starts a throwaway `redis-server` (the one of {@link redisServerBinary}) on 127.0.0.1 and a free port, in a new
 * temporary folder, with no persistence, and resolves once it answers (`INFO server`, with its own process id).
 * Tries three free ports before giving up (another process may take the one picked before the server binds it).
 * Throws when no server binary was found (the message says how to install one) or it does not start.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = redisServerBinary.path;
  if (binary === undefined) throw new Error(`no redis-server to run: ${INSTALL_HINT} (${redisServerBinary.missing})`);
  const args = options.args ?? [];
  const dir = mkdtempSync(join(tmpdir(), 'mockrouter-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await spawnReady(binary, port, dir, args);
    } catch (error) {
      if (attempt === 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  let current: ChildProcess | undefined = child;
  let stopped = false;
  const isRunning = (): boolean => current !== undefined && current.exitCode === null && current.signalCode === null;
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = current;
    current = undefined;
    if (proc === undefined) return;
    proc.kill(signal);
    if (signal === 'SIGKILL') return exited(proc);
    const timer = setTimeout(() => proc.kill('SIGKILL'), TERM_GRACE_MS);
    await exited(proc);
    clearTimeout(timer);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get running() {
      return isRunning();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    kill: () => end('SIGKILL'),
    async restart() {
      if (stopped) throw new Error(`redis-server on port ${port} was stopped: it cannot be restarted`);
      await end('SIGTERM');
      current = await spawnReady(binary, port, dir, args);
    },
  };
}

/**
 * `describe(title, body)` with a {@link RedisServer} started before the block's tests (`beforeAll`) and stopped
 * after them (`afterAll`). `body` gets the server as a handle whose members are usable inside tests and hooks
 * (reading `url` while the tests are being collected throws). Without a server binary: locally, the tests are
 * skipped under the title `<title>: no redis-server found: ...` (also written to stderr, which the default
 * reporter shows); under CI, one failing test says the same.
 */
export function describeWithRedis(title: string, body: (redis: RedisServer) => void, options: RedisServerOptions = {}): void {
  const why = redisServerBinary.path === undefined ? `no redis-server found: ${INSTALL_HINT} (${redisServerBinary.missing})` : undefined;
  if (why !== undefined) {
    describeMissingTool(title, 'redis-server', why, () => body(notStarted()));
    return;
  }
  describe(title, () => {
    let server: RedisServer | undefined;
    const started = (): RedisServer => server ?? notStartedYet();
    beforeAll(async () => {
      server = await startRedisServer(options);
    });
    afterAll(async () => {
      await server?.stop();
    });
    body({
      get url() {
        return started().url;
      },
      get port() {
        return started().port;
      },
      get dir() {
        return started().dir;
      },
      get running() {
        return server?.running ?? false;
      },
      stop: () => started().stop(),
      kill: () => started().kill(),
      restart: () => started().restart(),
    });
  });
}

/** Throws: the server of {@link describeWithRedis} is not there (yet, or the tests are skipped). */
function notStartedYet(): never {
  throw new Error('redis-server is not started: use the handle of describeWithRedis inside tests and hooks, not while they are collected');
}

/** A handle whose every member (but `running`) throws {@link notStartedYet}'s error. */
function notStarted(): RedisServer {
  return {
    get url() {
      return notStartedYet();
    },
    get port() {
      return notStartedYet();
    },
    get dir() {
      return notStartedYet();
    },
    get running() {
      return false;
    },
    stop: notStartedYet,
    kill: notStartedYet,
    restart: notStartedYet,
  };
}
