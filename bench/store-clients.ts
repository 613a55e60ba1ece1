/**
 * The Redis-protocol clients the shared store could use, side by side against one local `redis-server`: `ioredis`,
 * `iovalkey` (the Valkey project's fork of it) and `redis` (node-redis). Run it with
 * `node --import tsx bench/store-clients.ts`; it starts its own throwaway server (`test/support/redis.ts`) unless
 * `REDIS_URL` names one. Only `ioredis` is a dependency; install the others for the run only:
 * `npm i --no-save --ignore-scripts iovalkey redis` (a client not installed is left out, with a line saying so).
 *
 * For each client (and for `ioredis`/`iovalkey` also with `enableAutoPipelining`):
 * - **import**: a fresh `node` process that only imports the package, spawn to exit minus `node -e 0`'s, ms
 *   (median of `STORE_BENCH_STARTS`, default 5);
 * - **INCR/s**: `INCR` round trips per second on one connection with 50 in flight (50 loops, each awaiting its
 *   reply before sending the next);
 * - **script/s**: the same with a Lua script (`INCR` then `PEXPIRE` of one key, through the client's own
 *   script helper, which sends `EVALSHA` and falls back to `EVAL` on `NOSCRIPT`);
 *   each measured for `STORE_BENCH_SECONDS` (default 2) after 0.5 s of warm-up, in `STORE_BENCH_ROUNDS` rounds
 *   (default 3; the order of the clients reversed every round so a burst of load elsewhere hits all), the median
 *   round shown;
 * - **fail fast** (own server only): with its offline queue off, a command sent right after the server is killed
 *   (SIGKILL) rejects after how many ms, with what error; then, after a restart on the same port, how many ms
 *   until a command succeeds again (reconnect delay capped at 500 ms for every client).
 *
 * Results go to stdout as Markdown tables; progress to stderr.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { startRedisServer, type RedisServer } from '../test/support/redis.js';

/** What the bench needs of a connected client, whatever its API. */
interface Connection {
  incr(key: string): Promise<number>;
  /** The Lua script: `INCR KEYS[1]`, `PEXPIRE KEYS[1] ARGV[1]`, returns the count. */
  bump(key: string, ttlMs: number): Promise<number>;
  /** `BLPOP` of a key nobody pushes to, no timeout: a command that stays in flight until the connection ends. */
  blockForever(): Promise<unknown>;
  close(): Promise<void>;
}

/** One client under test: how to connect it with the offline queue off and a capped reconnect delay. */
interface Subject {
  label: string;
  /** The npm package. */
  pkg: string;
  connect(url: string): Promise<Connection>;
}

const BUMP = "local n = redis.call('INCR', KEYS[1]); redis.call('PEXPIRE', KEYS[1], ARGV[1]); return n";
const IN_FLIGHT = 50;
const SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.STORE_BENCH_ROUNDS ?? 3);
const STARTS = Number(process.env.STORE_BENCH_STARTS ?? 5);
/** Reconnect delay for every client: 50 ms per attempt, at most 500 ms. */
const reconnectDelay = (attempt: number): number => Math.min(50 * attempt, 500);

const require = createRequire(import.meta.url);
const progress = (message: string): void => void process.stderr.write(`store-clients: ${message}\n`);

function installed(pkg: string): string | undefined {
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** A module by a name TypeScript does not resolve (the clients other than ioredis are not dependencies). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (pkg: string): Promise<any> => import(pkg);

/** ioredis and iovalkey share one API (iovalkey is a fork of ioredis 5). */
function ioredisLike(pkg: string, autoPipelining: boolean): Subject {
  return {
    label: autoPipelining ? `${pkg} (enableAutoPipelining)` : pkg,
    pkg,
    async connect(url) {
      const { default: Redis } = await load(pkg);
      const client = new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        enableAutoPipelining: autoPipelining,
        retryStrategy: reconnectDelay,
      });
      client.on('error', () => {});
      client.defineCommand('bump', { numberOfKeys: 1, lua: BUMP });
      await client.connect();
      return {
        incr: (key) => client.incr(key),
        bump: (key, ttlMs) => client.bump(key, ttlMs),
        blockForever: () => client.blpop('never', 0),
        close: async () => void client.disconnect(),
      };
    },
  };
}

const nodeRedis: Subject = {
  label: 'redis (node-redis)',
  pkg: 'redis',
  async connect(url) {
    const { createClient, defineScript } = await load('redis');
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: reconnectDelay },
      scripts: {
        bump: defineScript({
          SCRIPT: BUMP,
          NUMBER_OF_KEYS: 1,
          parseCommand(parser: { pushKey(key: string): void; push(arg: string): void }, key: string, ttlMs: number) {
            parser.pushKey(key);
            parser.push(String(ttlMs));
          },
          transformReply: (reply: number) => reply,
        }),
      },
    });
    client.on('error', () => {});
    await client.connect();
    return {
      incr: (key) => client.incr(key),
      bump: (key, ttlMs) => client.bump(key, ttlMs),
      blockForever: () => client.blPop('never', 0),
      close: async () => void client.destroy(),
    };
  },
};

const SUBJECTS: Subject[] = [ioredisLike('ioredis', false), ioredisLike('ioredis', true), ioredisLike('iovalkey', false), ioredisLike('iovalkey', true), nodeRedis];

/** Calls `op` in {@link IN_FLIGHT} loops for `seconds`; completed calls per second. */
async function throughput(op: (i: number) => Promise<unknown>, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, i) => {
      while (performance.now() < until) {
        await op(i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function spawnMs(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  return performance.now() - started;
}

/** Median ms a fresh process spends importing `pkg`, over `node -e 0`. */
function importMs(pkg: string): number {
  const base: number[] = [];
  const withImport: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    base.push(spawnMs(['-e', '0']));
    withImport.push(spawnMs(['--input-type=module', '-e', `await import(${JSON.stringify(pkg)})`]));
  }
  return median(withImport) - median(base);
}

/** How a promise ended, and after how many ms from `since` (at most 10 s: "no answer within 10 s"). */
async function settle(promise: Promise<unknown>, since: number): Promise<{ ms: number; outcome: string }> {
  const outcome = await Promise.race([
    promise.then(
      () => 'answered',
      (error: Error) => error.message.slice(0, 60).replace(/\|/g, '/'),
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 10 s'), 10_000).unref()),
  ]);
  return { ms: performance.now() - since, outcome };
}

/**
 * Kills the server under a connected client with a command in flight (a `BLPOP` with no timeout), times that
 * command's rejection and then a new command's, restarts the server, and times the recovery.
 */
async function failFast(subject: Subject, server: RedisServer): Promise<string[]> {
  const connection = await subject.connect(server.url);
  await connection.incr('failfast');
  const blocked = connection.blockForever();
  blocked.catch(() => {});
  // The BLPOP has reached the server once the server lists a client blocked in it.
  while (!spawnSync('redis-cli', ['-u', server.url, 'CLIENT', 'LIST'], { encoding: 'utf8' }).stdout.includes('cmd=blpop')) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await server.kill();
  const killed = performance.now();
  const inFlight = await settle(blocked, killed);
  const sentAfter = performance.now();
  const next = await settle(connection.incr('failfast'), sentAfter);
  await server.restart();
  const restarted = performance.now();
  let recovered = 'no';
  while (performance.now() - restarted < 10_000) {
    try {
      await connection.incr('failfast');
      recovered = (performance.now() - restarted).toFixed(0);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  await connection.close();
  return [inFlight.ms.toFixed(1), inFlight.outcome, next.ms.toFixed(1), next.outcome, recovered];
}

async function main(): Promise<void> {
  const own = process.env.REDIS_URL === undefined ? await startRedisServer() : undefined;
  const url = process.env.REDIS_URL ?? own!.url;
  const info = spawnSync('redis-cli', ['-u', url, 'INFO', 'server'], { encoding: 'utf8' }).stdout ?? '';
  const serverVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  progress(`server ${url} (redis_version ${serverVersion}), ${SECONDS} s × ${ROUNDS} rounds`);
  const subjects = SUBJECTS.filter((subject) => {
    if (installed(subject.pkg)) return true;
    progress(`${subject.label}: not installed, left out (npm i --no-save --ignore-scripts ${subject.pkg})`);
    return false;
  });
  try {
    const imports = new Map<string, number>();
    for (const pkg of new Set(subjects.map((subject) => subject.pkg))) {
      progress(`import ${pkg}`);
      imports.set(pkg, importMs(pkg));
    }
    const connections = new Map<Subject, Connection>();
    for (const subject of subjects) {
      const connection = await subject.connect(url);
      await throughput((i) => connection.incr(`warm:${i}`), 0.5);
      await throughput((i) => connection.bump(`warm:${i}`, 60_000), 0.5);
      connections.set(subject, connection);
    }
    const incr = new Map<Subject, number[]>(subjects.map((subject) => [subject, []]));
    const script = new Map<Subject, number[]>(subjects.map((subject) => [subject, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? subjects : [...subjects].reverse();
      for (const subject of order) {
        progress(`round ${round + 1}: ${subject.label}`);
        const connection = connections.get(subject)!;
        incr.get(subject)!.push(await throughput((i) => connection.incr(`incr:${i}`), SECONDS));
        script.get(subject)!.push(await throughput((i) => connection.bump(`bump:${i}`, 60_000), SECONDS));
      }
    }
    for (const connection of connections.values()) await connection.close();

    const out: string[] = [];
    out.push(`redis-server ${serverVersion}, Node ${process.version}, ${IN_FLIGHT} in flight on one connection, median of ${ROUNDS} rounds of ${SECONDS} s`, '');
    out.push('| client | version | import ms | INCR/s | script/s | INCR/s rounds |', '|---|---|---|---|---|---|');
    for (const subject of subjects) {
      const rounds = incr.get(subject)!;
      out.push(
        `| ${subject.label} | ${installed(subject.pkg)} | ${imports.get(subject.pkg)!.toFixed(0)} | ${median(rounds).toFixed(0)} | ${median(script.get(subject)!).toFixed(0)} | ${rounds.map((r) => r.toFixed(0)).join(', ')} |`,
      );
    }
    if (own !== undefined) {
      out.push(
        '',
        '| client (offline queue off) | killed → in-flight BLPOP rejected, ms | its error | next command rejected, ms | its error | restarted → answering, ms |',
        '|---|---|---|---|---|---|',
      );
      for (const subject of subjects.filter((s) => !s.label.includes('AutoPipelining'))) {
        progress(`fail fast: ${subject.label}`);
        out.push(`| ${subject.label} | ${(await failFast(subject, own)).join(' | ')} |`);
      }
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await own?.stop();
  }
}

await main();
