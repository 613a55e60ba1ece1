/**
 * Load generation (autocannon, in this process), with the server's and the generator's CPU time, and response
 * capture (one plain request).
 *
 * A load is a list of autocannon requests each connection cycles through: one fixed request, a mix, or
 * requests whose `setupRequest` makes every body distinct (cold speech).
 *
 * @module
 */
import type { EventEmitter } from 'node:events';
import { request } from 'node:http';
import autocannon from 'autocannon';
import { cpuTimeMs, type BenchRequest, type Recorded, type Target } from './targets.js';

/** Headers that are about the connection or the framing, not the response: Node writes its own. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
/** The mock's chunk size for streamed bodies (`DEFAULT_CHUNK_BYTES` in src/core/http/body.ts). */
const MOCK_CHUNK_BYTES = 16 * 1024;

/** Sends `c` once to `origin` on a fresh connection and records the response. */
export function capture(origin: string, c: BenchRequest): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(c.path, origin), { method: c.method, headers: c.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', reject);
      res.on('end', () => {
        const headers: string[] = [];
        let chunked = false;
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          const lower = name.toLowerCase();
          if (lower === 'transfer-encoding') chunked = /chunked/i.test(res.rawHeaders[i + 1]!);
          if (!FRAMING.has(lower)) headers.push(name, res.rawHeaders[i + 1]!);
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(parts), chunkSize: chunked ? MOCK_CHUNK_BYTES : null });
      });
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

/** Throws unless `actual` is byte-for-byte the `expected` response (status, headers, body, framing). */
export function assertSameResponse(what: string, expected: Recorded, actual: Recorded): void {
  const problems: string[] = [];
  if (actual.status !== expected.status) problems.push(`status ${actual.status} ≠ ${expected.status}`);
  if (JSON.stringify(actual.headers) !== JSON.stringify(expected.headers)) {
    problems.push(`headers ${JSON.stringify(actual.headers)} ≠ ${JSON.stringify(expected.headers)}`);
  }
  if (!actual.body.equals(expected.body)) problems.push(`body of ${actual.body.byteLength} bytes ≠ ${expected.body.byteLength} bytes`);
  if (actual.chunkSize !== expected.chunkSize) problems.push(`framing ${actual.chunkSize ?? 'length'} ≠ ${expected.chunkSize ?? 'length'}`);
  if (problems.length > 0) throw new Error(`${what}: ${problems.join('; ')}`);
}

/** What one server is sent: requests each connection cycles through, in order. */
export type Load = autocannon.Request[];

/** One request as an autocannon request. */
export function fixed(c: BenchRequest): autocannon.Request {
  return { method: c.method, path: c.path, headers: c.headers, ...(c.body === undefined ? {} : { body: c.body }) };
}

/** One autocannon run against one server. */
interface Slice {
  /** Response times in ms (sub-ms resolution), every response. */
  latencies: number[];
  /** Responses by status code. */
  statuses: Map<number, number>;
  total: number;
  /** Bytes received (2xx responses). */
  bytes: number;
  /** Length of the run, in seconds. */
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU time of the server process over the run (ms), `null` without procfs. */
  serverCpuMs: number | null;
  /** CPU time of this process (the load generator) over the run (ms). */
  clientCpuMs: number;
}

/** What the runs against one server measured, all slices together. */
export interface Measured {
  /** Requests per second: all requests over all the measured time. */
  rps: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  bytesPerSec: number;
  total: number;
  seconds: number;
  /** Responses by status code. */
  statuses: Map<number, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server CPU time per wall second (1 = one core busy), `null` without procfs. */
  serverCpu: number | null;
  /** Server CPU time per request in µs, `null` without procfs. */
  serverCpuUsPerReq: number | null;
  /** Load generator CPU time per wall second. */
  clientCpu: number;
}

export interface LoadOptions {
  connections: number;
  /** Seconds of measurement per server, split over the rounds. */
  duration: number;
  /** Seconds of warm-up per server before its first slice (0: none). */
  warmup: number;
  /** Slices per server; the order alternates (A, B, C, then C, B, A, ...) so drift hits every server alike. */
  rounds: number;
  /** Seconds autocannon waits for a response before counting a timeout (default 10). */
  timeout?: number;
  /**
   * Measure each slice as a number of requests (sized from the warm-up's rate to last about a slice) instead
   * of a time: for slow requests (cold synthesis), where a request cut off at the end of a timed slice would
   * leave its CPU time counted and the request not.
   */
  byAmount?: boolean;
}

/** How long one run goes: seconds, or a number of requests. */
type Length = { duration: number } | { amount: number };

/** Runs autocannon once with `load`, recording every response time when `record`. */
export async function run(target: Target, load: Load, connections: number, length: Length, record: boolean, timeout = 10): Promise<Slice> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const serverBefore = cpuTimeMs(target.child.pid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      // autocannon checks for the end of a run once per `sampleInt` (default 1 s): 50 ms keeps a 2.5 s slice
      // from running 3 s and an `amount` run from idling up to a second after its last response.
      { url: target.origin, requests: load, connections, timeout, sampleInt: 50, ...length },
      (error: Error | null, res: autocannon.Result) => (error ? reject(error) : resolve(res)),
    );
    // autocannon emits (client, statusCode, resBytes, responseTime); its typings leave out the client.
    (instance as EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      lastResponse = performance.now();
      if (record) latencies.push(ms);
    });
  });
  const serverAfter = cpuTimeMs(target.child.pid);
  const client = process.cpuUsage(clientBefore);
  return {
    latencies,
    statuses,
    total: result.requests.total,
    bytes: result.throughput.total,
    // A timed run sends until its end; a counted one is over at its last response.
    seconds: 'amount' in length ? (lastResponse - started) / 1000 : result.duration,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuMs: serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore,
    clientCpuMs: (client.user + client.system) / 1000,
  };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function combine(slices: Slice[]): Measured {
  const sum = (f: (s: Slice) => number) => slices.reduce((acc, s) => acc + f(s), 0);
  const seconds = sum((s) => s.seconds);
  const total = sum((s) => s.total);
  const latencies = Float64Array.from(slices.flatMap((s) => s.latencies)).sort();
  const serverCpuMs = slices.some((s) => s.serverCpuMs === null) ? null : sum((s) => s.serverCpuMs!);
  const statuses = new Map<number, number>();
  for (const s of slices) for (const [status, n] of s.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  return {
    rps: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bytesPerSec: sum((s) => s.bytes) / seconds,
    total,
    seconds,
    statuses,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    serverCpu: serverCpuMs === null ? null : serverCpuMs / 1000 / seconds,
    serverCpuUsPerReq: serverCpuMs === null || total === 0 ? null : (serverCpuMs * 1000) / total,
    clientCpu: sum((s) => s.clientCpuMs) / 1000 / seconds,
  };
}

/** One server of a comparison and the load it is sent. */
export interface Side {
  target: Target;
  load: Load;
}

/**
 * Measures every side: a warm-up on each, then `rounds` slices each of `duration / rounds` seconds, the order
 * of the sides reversed every round (A B C, C B A, ...).
 *
 * @returns one {@link Measured} per side, in the order given.
 */
export async function compare(sides: Side[], options: LoadOptions): Promise<Measured[]> {
  const { connections, warmup, rounds, timeout, byAmount = false } = options;
  const slice = options.duration / rounds;
  const lengths: Length[] = sides.map(() => ({ duration: slice }));
  for (const [i, side] of sides.entries()) {
    if (warmup > 0) await run(side.target, side.load, connections, { duration: warmup }, false, timeout);
    if (byAmount) lengths[i] = { amount: await sliceAmount(side, connections, slice, timeout) };
  }
  const slices: Slice[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => (round % 2 === 0 ? i : sides.length - 1 - i));
    for (const i of order) slices[i]!.push(await run(sides[i]!.target, sides[i]!.load, connections, lengths[i]!, true, timeout));
  }
  return slices.map(combine);
}

/**
 * Requests that take about `seconds` on `side`, at least 3 per connection: from a short calibration run (3
 * requests per connection, JIT already warm from the warm-up), rate ≈ connections / median latency.
 */
async function sliceAmount(side: Side, connections: number, seconds: number, timeout?: number): Promise<number> {
  // Let a request cut off by the end of the warm-up finish on the server first.
  await waitIdle(side.target);
  const probe = await run(side.target, side.load, connections, { amount: connections * 3 }, true, timeout);
  await waitIdle(side.target);
  const sorted = [...probe.latencies].sort((a, b) => a - b);
  const medianMs = sorted[sorted.length >> 1] ?? 1000;
  const rate = connections / Math.max(medianMs / 1000, 1e-4);
  return Math.max(connections * 3, Math.round(rate * seconds));
}

/** Waits until the target's CPU time stops moving (two equal readings 50 ms apart), at most `maxMs`. */
async function waitIdle(target: Target, maxMs = 5000): Promise<void> {
  const deadline = performance.now() + maxMs;
  let last = cpuTimeMs(target.child.pid);
  while (last !== null && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = cpuTimeMs(target.child.pid);
    if (now === last) return;
    last = now;
  }
}
