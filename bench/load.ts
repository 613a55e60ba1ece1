/**
 * Load generation (autocannon, in this process), with the server's and the generator's CPU time, and response
 * capture (one plain request).
 *
 * @module
 */
import type { EventEmitter } from 'node:events';
import { request } from 'node:http';
import autocannon from 'autocannon';
import { cpuTimeMs, type BenchCase, type Recorded, type Target } from './targets.js';

/** Headers that are about the connection or the framing, not the response: Node writes its own. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
/** The mock's chunk size for streamed bodies (`DEFAULT_CHUNK_BYTES` in src/core/body.ts). */
const MOCK_CHUNK_BYTES = 16 * 1024;

/** Sends `c` once to `origin` on a fresh connection and records the response. */
export function capture(origin: string, c: BenchCase): Promise<Recorded> {
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

/** One autocannon run against one server. */
interface Slice {
  /** Response times in ms (sub-ms resolution), every response. */
  latencies: number[];
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
  /** Slices per server; the order alternates (mock, bare, bare, mock, ...) so drift hits both alike. */
  rounds: number;
}

/** Runs autocannon once with `c`'s request, recording every response time. */
async function run(target: Target, c: BenchCase, connections: number, duration: number, record: boolean): Promise<Slice> {
  const latencies: number[] = [];
  const serverBefore = cpuTimeMs(target.child.pid);
  const clientBefore = process.cpuUsage();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: new URL(c.path, target.origin).href,
        method: c.method,
        headers: c.headers,
        ...(c.body === undefined ? {} : { body: c.body }),
        connections,
        duration,
      },
      (error: Error | null, res: autocannon.Result) => (error ? reject(error) : resolve(res)),
    );
    // autocannon emits (client, statusCode, resBytes, responseTime); its typings leave out the client.
    if (record) (instance as EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  });
  const serverAfter = cpuTimeMs(target.child.pid);
  const client = process.cpuUsage(clientBefore);
  return {
    latencies,
    total: result.requests.total,
    bytes: result.throughput.total,
    seconds: result.duration,
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

function combine(slices: Slice[]): Measured {
  const sum = (f: (s: Slice) => number) => slices.reduce((acc, s) => acc + f(s), 0);
  const seconds = sum((s) => s.seconds);
  const total = sum((s) => s.total);
  const latencies = Float64Array.from(slices.flatMap((s) => s.latencies)).sort();
  const serverCpuMs = slices.some((s) => s.serverCpuMs === null) ? null : sum((s) => s.serverCpuMs!);
  return {
    rps: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bytesPerSec: sum((s) => s.bytes) / seconds,
    total,
    seconds,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    serverCpu: serverCpuMs === null ? null : serverCpuMs / 1000 / seconds,
    serverCpuUsPerReq: serverCpuMs === null ? null : (serverCpuMs * 1000) / total,
    clientCpu: sum((s) => s.clientCpuMs) / 1000 / seconds,
  };
}

/**
 * Measures `c` on both servers: a warm-up on each, then `rounds` slices each of `duration / rounds` seconds,
 * alternating which server goes first.
 */
export async function compare(mock: Target, bare: Target, c: BenchCase, options: LoadOptions): Promise<{ mock: Measured; bare: Measured }> {
  const { connections, warmup, rounds } = options;
  const slice = options.duration / rounds;
  if (warmup > 0) {
    await run(mock, c, connections, warmup, false);
    await run(bare, c, connections, warmup, false);
  }
  const slices = { mock: [] as Slice[], bare: [] as Slice[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['mock', 'bare'] as const) : (['bare', 'mock'] as const);
    for (const side of order) slices[side].push(await run(side === 'mock' ? mock : bare, c, connections, slice, true));
  }
  return { mock: combine(slices.mock), bare: combine(slices.bare) };
}
