/**
 * The shared-store figures (replicas sharing one Valkey/Redis store), over HTTP against the CLI:
 *
 * 1. what shared state costs a request: the model lookup and a cached PCM sentence, mockrouter in memory
 *    (`bin/mockrouter.js` as the HTTP section starts it) against the same with `--store` on a throwaway
 *    `redis-server`, one process each; with a store every API request reads the shared controls (one `HMGET`)
 *    and writes its journal entry (one Lua script) before it answers;
 * 2. what a second process buys: cold MP3 paragraphs (every input distinct), `--store --workers 2` against
 *    `--store --workers 1`, with enough connections to keep two processes busy.
 *
 * Each comparison alternates slices between its two sides (A B, B A, ...), as `compare` (load.ts) does, but
 * reads the CPU time of every process of a side (the primary and its `--workers`, which `compare` cannot see)
 * and of the `redis-server`, per slice. The `redis-server` is Debian's (or `REDIS_SERVER`), started and stopped
 * here through test/support/redis.ts; without one the section is skipped with the reason. Report and goals:
 * store-report.ts.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { MODEL_LOOKUP, coldSpeech, distinct, speechRequest } from './cases.js';
import { capture, combine, fixed, run, type Load, type Measured } from './load.js';
import { cpuTimeMs, startMock, stopChild, type Target } from './targets.js';
import type { RedisServer } from '../test/support/redis.js';

/** One side of a comparison as measured: the load's figures, plus the store's share. */
export interface StoreMeasured extends Measured {
  /** `redis-server`'s CPU time per request, µs, over the measured slices; `null` without a store or procfs. */
  redisCpuUsPerReq: number | null;
  /** Processes serving the side (the primary and its workers, or the one process). */
  processes: number;
  /**
   * CPU time per wall second of each process over the measured slices (1 = one core), the primary first and then
   * its workers; empty without procfs. Shows whether the workers shared the load.
   */
  processCpu: number[];
  /** Share of the machine's CPU time (all cores) that was busy over the measured slices, 0–1, whoever used it; `null` without procfs. */
  machineBusy: number | null;
}

/** Memory against store for one request. */
export interface StoreCostRow {
  name: string;
  memory: StoreMeasured;
  store: StoreMeasured;
}

export interface StoreResult {
  /** `redis-server`'s version, as it reports it (`INFO server`). */
  redisVersion: string;
  connections: number;
  cost: StoreCostRow[];
  workers: {
    connections: number;
    /** Audio length of one request, ms (from the PCM byte count: 48,000 bytes a second). */
    audioMs: number;
    one: StoreMeasured;
    two: StoreMeasured;
  };
}

export interface StoreOptions {
  connections: number;
  /** Connections of the cold MP3 comparison (enough to keep two workers busy). */
  workerConnections: number;
  /** Measured seconds per side of the comparisons in memory against `--store`, split over the rounds. */
  duration: number;
  /**
   * Measured seconds per side of the cold MP3 comparison, split over the rounds. Longer than `duration`: those requests
   * are slow, and a timed slice loses the ones in flight at its end.
   */
  workerDuration: number;
  warmup: number;
  rounds: number;
  progress: (message: string) => void;
}

/** A side of {@link alternate}: a server and its load. */
interface Side {
  /** For progress lines. */
  name: string;
  target: Target;
  load: Load;
}

type Slice = Awaited<ReturnType<typeof run>>;

/**
 * The pids of `pid` and its children (from `/proc/<pid>/task/<tid>/children`): the primary and its `--workers`.
 * Just `[pid]` where there is no procfs.
 */
function processTree(pid: number): number[] {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

/** CPU time of every process in `pids` together, ms; `null` if any cannot be read. */
function cpuOf(pids: number[]): number | null {
  let sum = 0;
  for (const pid of pids) {
    const t = cpuTimeMs(pid);
    if (t === null) return null;
    sum += t;
  }
  return sum;
}

/** The machine's CPU time so far from `/proc/stat` (all cores, clock ticks): busy and total; `null` without procfs. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3]! - f[4]!, total };
  } catch {
    return null;
  }
}

/** Waits until the CPU time of `pids` stops moving (two equal readings 50 ms apart), at most `maxMs`. */
async function waitIdle(pids: number[], maxMs = 5000): Promise<void> {
  const deadline = performance.now() + maxMs;
  let last = cpuOf(pids);
  while (last !== null && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = cpuOf(pids);
    if (now === last) return;
    last = now;
  }
}

/**
 * Measures both sides as `compare` (load.ts) does: a warm-up on each, then `rounds` timed slices each of
 * `duration / rounds` seconds, the order reversed every round. The server CPU is that of the side's whole process
 * tree; `redisPid`'s CPU over each slice is counted to the side that ran it. With `settle`, each slice starts once
 * the side's processes are idle (slow requests cut off at the end of the previous run still finish on the server).
 *
 * Timed, never a number of requests: autocannon splits an `amount` evenly over the connections, and node:cluster
 * hands whole connections to whichever worker is free, often unevenly, so the worker with fewer connections would
 * finish its share early and idle while the other works through its own (bench/README.md, section 8).
 */
async function alternate(sides: Side[], redisPid: number | undefined, options: StoreOptions & { connections: number; timeout: number; settle: boolean }): Promise<StoreMeasured[]> {
  const { connections, warmup, rounds, timeout, settle } = options;
  const slice = options.duration / rounds;
  const trees = sides.map((side) => processTree(side.target.child.pid!));
  for (const side of sides) if (warmup > 0) await run(side.target, side.load, connections, { duration: warmup }, false, timeout);
  const slices: Slice[][] = sides.map(() => []);
  const redisMs: Array<number | null> = sides.map(() => 0);
  const perProcessMs: Array<Array<number | null>> = trees.map((tree) => tree.map(() => 0));
  const machine = sides.map(() => ({ busy: 0, total: 0, known: true }));
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => (round % 2 === 0 ? i : sides.length - 1 - i));
    for (const i of order) {
      if (settle) await waitIdle(trees[i]!);
      const ticksBefore = machineTicks();
      const eachBefore = trees[i]!.map(cpuTimeMs);
      const before = cpuOf(trees[i]!);
      const redisBefore = redisPid === undefined ? null : cpuTimeMs(redisPid);
      const s = await run(sides[i]!.target, sides[i]!.load, connections, { duration: slice }, true, timeout);
      const after = cpuOf(trees[i]!);
      const eachAfter = trees[i]!.map(cpuTimeMs);
      const ticksAfter = machineTicks();
      const each = trees[i]!.map((_, k) => (eachBefore[k] == null || eachAfter[k] == null ? 'n/a' : `${((eachAfter[k]! - eachBefore[k]!) / 10 / s.seconds).toFixed(0)}%`));
      options.progress(`store:   ${sides[i]!.name}, slice ${round + 1}: ${s.total} requests in ${s.seconds.toFixed(1)} s, CPU by process ${each.join(' / ')}`);
      if (ticksBefore === null || ticksAfter === null) machine[i]!.known = false;
      else {
        machine[i]!.busy += ticksAfter.busy - ticksBefore.busy;
        machine[i]!.total += ticksAfter.total - ticksBefore.total;
      }
      perProcessMs[i] = perProcessMs[i]!.map((sum, k) => {
        const [b, a] = [eachBefore[k], eachAfter[k]];
        return sum === null || b === null || b === undefined || a === null || a === undefined ? null : sum + a - b;
      });
      const redisAfter = redisPid === undefined ? null : cpuTimeMs(redisPid);
      slices[i]!.push({ ...s, serverCpuMs: before === null || after === null ? null : after - before });
      const spent = redisBefore === null || redisAfter === null ? null : redisAfter - redisBefore;
      redisMs[i] = redisMs[i] === null || spent === null ? null : redisMs[i]! + spent;
    }
  }
  return slices.map((s, i) => {
    const m = combine(s);
    const redis = redisMs[i];
    const each = perProcessMs[i]!;
    return {
      ...m,
      redisCpuUsPerReq: redis === null || redis === undefined || m.total === 0 ? null : (redis * 1000) / m.total,
      processes: trees[i]!.length,
      processCpu: each.some((x) => x === null) ? [] : each.map((x) => x! / 1000 / m.seconds),
      machineBusy: machine[i]!.known && machine[i]!.total > 0 ? machine[i]!.busy / machine[i]!.total : null,
    };
  });
}

/**
 * `redis-server`'s version and process id from `INFO server` (`redis_version:7.0.15`, `process_id:1234`);
 * `unknown` and `undefined` when it does not say.
 */
async function redisInfo(url: string): Promise<{ version: string; pid: number | undefined }> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const info = await client.info('server');
    const pid = /process_id:(\d+)/.exec(info)?.[1];
    return { version: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown', pid: pid === undefined ? undefined : Number(pid) };
  } finally {
    client.disconnect();
  }
}

/**
 * Runs both comparisons on a throwaway `redis-server`, or returns why not (no server binary found) as a string.
 * Every process it starts is stopped before it returns, on error too. Throws when a server answers a
 * probe request with other than 200.
 */
export async function measureStore(options: StoreOptions): Promise<StoreResult | string> {
  // test/support/redis.ts finds and runs the server; imported here only, since it imports vitest.
  const { redisServerBinary, startRedisServer, INSTALL_HINT } = await import('../test/support/redis.js');
  if (redisServerBinary.path === undefined) return `no redis-server found: ${INSTALL_HINT} (${redisServerBinary.missing})`;
  const { progress } = options;
  let redis: RedisServer | undefined;
  const started: Target[] = [];
  const start = async (args: string[]) => {
    const target = await startMock([], args);
    started.push(target);
    return target;
  };
  try {
    redis = await startRedisServer();
    const { version, pid: redisPid } = await redisInfo(redis.url);
    progress(`store: redis-server ${version} on ${redis.url}`);

    const [memory, store] = await Promise.all([start([]), start(['--store', redis.url, '--store-prefix', 'bench-cost:'])]);
    const cost: StoreCostRow[] = [];
    for (const [name, request] of [['model lookup', MODEL_LOOKUP], ['speech pcm sentence, cached', speechRequest('pcm', 'sentence')]] as const) {
      for (const target of [memory, store]) {
        const r = await capture(target.origin, request);
        if (r.status !== 200) throw new Error(`store: ${name}: mockrouter answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
      }
      progress(`store: ${name}, memory against --store, ${options.connections} connections…`);
      const [m, s] = await alternate([{ name: 'memory', target: memory, load: [fixed(request)] }, { name: '--store', target: store, load: [fixed(request)] }], redisPid,
        { ...options, settle: false, timeout: 10 });
      cost.push({ name, memory: m!, store: s! });
    }
    await Promise.all([stopChild(memory.child), stopChild(store.child)]);

    const [one, two] = [await start(['--store', redis.url, '--store-prefix', 'bench-w1:', '--workers', '1']),
      await start(['--store', redis.url, '--store-prefix', 'bench-w2:', '--workers', '2'])];
    const pcm = await capture(one.origin, speechRequest('pcm', 'paragraph', distinct()));
    if (pcm.status !== 200) throw new Error(`store: speech pcm paragraph: mockrouter answered ${pcm.status}`);
    for (const target of [one, two]) {
      const r = await capture(target.origin, speechRequest('mp3', 'paragraph', distinct()));
      if (r.status !== 200) throw new Error(`store: speech mp3 paragraph: mockrouter (${target.origin}) answered ${r.status}`);
    }
    progress(`store: cold MP3 paragraph, --workers 1 against --workers 2, ${options.workerConnections} connections…`);
    const load = [coldSpeech('mp3', 'paragraph')];
    const [w1, w2] = await alternate([{ name: '--workers 1', target: one, load }, { name: '--workers 2', target: two, load }], redisPid,
      { ...options, connections: options.workerConnections, duration: options.workerDuration, settle: true, timeout: 60 });
    return { redisVersion: version, connections: options.connections, cost, workers: { connections: options.workerConnections, audioMs: pcm.body.byteLength / 48, one: w1!, two: w2! } };
  } finally {
    await Promise.all(started.map((t) => stopChild(t.child)));
    await redis?.stop();
  }
}
