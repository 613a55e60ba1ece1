/**
 * Faults for the replicas that share one store, for `test/replicas-faults.test.ts`:
 *
 * - {@link spawnReplica}: a replica in its own process (`startServer` of `src/server/index.ts`, run from source
 *   through `tsx`, so it is the code under test and not a stale build), which a test can SIGKILL: a crash, not
 *   `RunningServer.close`'s graceful end.
 * - {@link startDelayProxy}: a TCP proxy that delays every chunk by a fixed time in each direction: a store that is
 *   reached over a slow network.
 * - {@link waitFor}: polling with an upper bound.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { ServerOptions } from '../../src/server/index.js';

/** The server module the child process imports (from source: `node --import tsx`). */
const SERVER_MODULE = new URL('../../src/server/index.ts', import.meta.url).pathname;
/** The line the child prints once it listens, then its origin. */
const READY = /^READY (http:\/\/127\.0\.0\.1:\d+)$/m;
/** Upper bound for the child to start (tsx compiles the server's sources first: ~1 s on an idle machine). */
const START_WITHIN_MS = 30_000;

/** The child's program: starts the server with the options of `MOCKROUTER_CHILD_OPTIONS` (JSON), prints `READY <origin>`. */
const CHILD_PROGRAM = `
const { startServer } = await import(${JSON.stringify(SERVER_MODULE)});
const server = await startServer(JSON.parse(process.env.MOCKROUTER_CHILD_OPTIONS));
process.stdout.write('READY ' + server.url + '\\n');
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
`;

/** Every replica process this test process started and has not seen exit, killed if the test process exits first. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A replica in a child process of {@link spawnReplica}. */
export interface ReplicaProcess {
  /** Origin, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** API base, `<url>/api/v1`. */
  readonly baseUrl: string;
  /** The child's process id. */
  readonly pid: number;
  /** What the child wrote to stdout and stderr so far. */
  output(): string;
  /** A crash: SIGKILL, resolved once the process has exited. Idempotent. */
  kill(): Promise<void>;
}

/**
 * Starts `startServer(options)` (JSON-serializable options only; `port` defaults to 0) in a new Node.js process and
 * resolves once it listens.
 *
 * @throws when the child exits before it listens (its output is in the message) or does not listen within 30 s.
 */
export async function spawnReplica(options: ServerOptions): Promise<ReplicaProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD_PROGRAM], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MOCKROUTER_CHILD_OPTIONS: JSON.stringify({ port: 0, ...options }) },
  });
  live.add(child);
  const exited = once(child, 'exit').then(() => {
    live.delete(child);
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica did not listen within ${START_WITHIN_MS} ms: ${output}`)), START_WITHIN_MS);
    const check = (): void => {
      const match = READY.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`replica exited before it listened: ${output}`));
    });
  }).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  return { url, baseUrl: `${url}/api/v1`, pid: child.pid!, output: () => output, kill };
}

/** A TCP proxy of {@link startDelayProxy}. */
export interface DelayProxy {
  /** The port it listens on, 127.0.0.1. */
  readonly port: number;
  /** Stops listening and destroys every proxied connection. */
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 and a free port to 127.0.0.1:`targetPort` that holds each chunk `delayMs` ms before
 * passing it on, in each direction (so a request and its reply take at least 2 × `delayMs` more), keeping the
 * order of chunks. Either side's end or error ends both.
 */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket): void => {
    from.on('data', (chunk: Buffer) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, delayMs);
    });
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Calls `probe` until it resolves a value other than `undefined` and resolves that value; a rejection of `probe`
 * counts as not yet. Waits ~50 ms between calls (after the previous one answered).
 *
 * @throws when `withinMs` ms pass first, with `what` and the last rejection's message.
 */
export async function waitFor<T>(what: string, withinMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + withinMs;
  let last = 'no answer yet';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      last = 'not yet';
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
