/**
 * `npm run bench`: builds, then measures in one run
 *
 * 1. HTTP throughput with autocannon (this process) against two child processes on 127.0.0.1: the standalone
 *    mockrouter (`bin/mockrouter.js --port 0 --quiet`) and a bare `node:http` server replaying the mock's exact
 *    response (the ceiling);
 * 2. cold speech synthesis, no HTTP, in a fresh process per format (bench/synth.ts);
 *
 * and prints the tables and the goals. Progress goes to stderr, the report to stdout.
 *
 * Environment: `BENCH_DURATION` measured seconds per case and server (default 5), `BENCH_WARMUP` seconds of
 * warm-up before (default 1, 0 for none), `BENCH_ROUNDS` slices the measured time is split in, alternating the
 * servers (default 2), `BENCH_CONNECTIONS` (default 50), `BENCH_RENDERS` uncached renders after the first
 * (default 20).
 *
 * @module
 */
import { cpus, loadavg } from 'node:os';
import { assertSameResponse, capture, compare, type Measured } from './load.js';
import { bytes, heading, int, median, mibPerSec, ms, percent, table, times, verdict } from './report.js';
import type { SynthResult } from './synth.js';
import { CASES, runScript, startBare, startMock, stopAll, stopChild, type BenchCase } from './targets.js';

/** Goals printed beside the figures. */
const GOALS = { modelLookupShareOfBare: 0.5, coldMp3TimesRealTime: 100 } as const;

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return n;
}

function readConfig() {
  return {
    duration: envNumber('BENCH_DURATION', 5, 0.5),
    warmup: envNumber('BENCH_WARMUP', 1, 0),
    connections: Math.round(envNumber('BENCH_CONNECTIONS', 50, 1)),
    rounds: Math.round(envNumber('BENCH_ROUNDS', 2, 1)),
    renders: Math.round(envNumber('BENCH_RENDERS', 20, 1)),
  };
}

const config = (() => {
  try {
    return readConfig();
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(2);
  }
})();

const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

interface HttpRow {
  c: BenchCase;
  bodyBytes: number;
  mock: Measured;
  bare: Measured;
}

async function httpBench(): Promise<HttpRow[]> {
  const [mock, bare] = await Promise.all([startMock(), startBare()]);
  progress(`mockrouter on ${mock.origin} (pid ${mock.child.pid}), bare node:http on ${bare.origin} (pid ${bare.child.pid})`);
  const rows: HttpRow[] = [];
  for (const c of CASES) {
    const recorded = await capture(mock.origin, c);
    if (recorded.status !== 200) throw new Error(`${c.name}: mockrouter answered ${recorded.status}: ${recorded.body.toString().slice(0, 300)}`);
    await bare.serve(recorded);
    assertSameResponse(`${c.name}: bare server's replay`, recorded, await capture(bare.origin, c));

    progress(`${c.name}…`);
    rows.push({ c, bodyBytes: recorded.body.byteLength, ...(await compare(mock, bare, c, config)) });
  }
  await Promise.all([stopChild(mock.child), stopChild(bare.child)]);
  return rows;
}

async function synthBench(format: 'mp3' | 'pcm'): Promise<SynthResult> {
  progress(`cold ${format} synthesis (fresh process)…`);
  const out = await runScript('./synth.ts', [format, String(config.renders)]);
  const result = JSON.parse(out.trim().split('\n').pop()!) as SynthResult;
  if (result.cacheHits !== 0) throw new Error(`synthesis ${format}: ${result.cacheHits} cache hits; the renders must all be distinct`);
  return result;
}

const realTime = (r: { audioMs: number; wallMs: number }) => r.audioMs / r.wallMs;

function printReport(rows: HttpRow[], synth: SynthResult[], loadAtStart: number): void {
  const cpu = cpus();
  const out: string[] = [];
  out.push(
    `mockrouter bench: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}/${process.arch}`,
    `1-min load average ${loadAtStart.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (the bench itself adds about 2)`,
    '',
    heading('1. HTTP throughput (autocannon)'),
    `${config.connections} connections; per case and server ${config.warmup} s of warm-up, then ${config.duration} s measured in ${config.rounds} slice(s)`,
    'alternating with the other server. Each server is its own process; "bare" is node:http replaying the',
    "mock's exact response (status, headers, body, framing): the ceiling. req/s = requests / measured seconds;",
    'latency percentiles over every response. "server CPU" is the server process\'s CPU time per wall second',
    '(100% = one core): well under 100% means the load generator (autocannon, this process, also shown), not the',
    'server, was the limit; "CPU µs/req" (server CPU time per request) then compares the servers more fairly.',
    '',
  );
  const r = { align: 'right' } as const;
  const httpRows: string[][] = [];
  for (const { c, bodyBytes, mock, bare } of rows) {
    const line = (server: string, x: Measured, ratio: string) => [
      server === 'mockrouter' ? c.name : '',
      server === 'mockrouter' ? bytes(bodyBytes) : '',
      server,
      int(x.rps),
      ms(x.p50),
      ms(x.p99),
      mibPerSec(x.bytesPerSec),
      x.serverCpu === null ? 'n/a' : percent(x.serverCpu),
      x.serverCpuUsPerReq === null ? 'n/a' : x.serverCpuUsPerReq.toFixed(1),
      percent(x.clientCpu),
      ratio,
    ];
    httpRows.push(line('mockrouter', mock, percent(mock.rps / bare.rps)), line('bare', bare, ''));
  }
  out.push(
    table(
      [{ title: 'case' }, { title: 'body', ...r }, { title: 'server' }, { title: 'req/s', ...r }, { title: 'p50 ms', ...r },
        { title: 'p99 ms', ...r }, { title: 'MiB/s', ...r }, { title: 'server CPU', ...r }, { title: 'CPU µs/req', ...r }, { title: 'autocannon CPU', ...r },
        { title: 'mock/bare req/s', ...r }],
      httpRows,
    ),
  );
  const bad = rows.flatMap(({ c, mock, bare }) =>
    (['mock', 'bare'] as const).flatMap((side) => {
      const x = side === 'mock' ? mock : bare;
      return x.non2xx + x.errors + x.timeouts > 0 ? [`  ${c.name} (${side}): ${x.non2xx} non-2xx, ${x.errors} errors, ${x.timeouts} timeouts`] : [];
    }),
  );
  out.push(bad.length > 0 ? `\nWARNING: failed requests\n${bad.join('\n')}` : '\nAll requests answered 2xx, no errors or timeouts.');

  out.push(
    '',
    heading('2. Cold speech synthesis (no HTTP)'),
    `createAudioRenderer().render() from dist/, fresh process per format, distinct ~10 s sentences (never cached);`,
    `"× real time" = audio duration / wall time. Module import (lamejs included) is not counted.`,
    '',
  );
  const synthRows: string[][] = [];
  for (const s of synth) {
    const restRt = s.rest.map(realTime);
    synthRows.push(
      [s.format, 'first render of the process', (s.first.audioMs / 1000).toFixed(1), bytes(s.first.bytes), ms(s.first.wallMs), times(realTime(s.first))],
      [s.format, `median of the next ${s.rest.length}`, (median(s.rest.map((x) => x.audioMs)) / 1000).toFixed(1), bytes(median(s.rest.map((x) => x.bytes))),
        ms(median(s.rest.map((x) => x.wallMs))), times(median(restRt))],
      [s.format, `  (min … max of those)`, '', '', `${ms(Math.min(...s.rest.map((x) => x.wallMs)))} … ${ms(Math.max(...s.rest.map((x) => x.wallMs)))}`,
        `${times(Math.min(...restRt))} … ${times(Math.max(...restRt))}`],
    );
  }
  out.push(table([{ title: 'format' }, { title: 'render' }, { title: 'audio s', ...r }, { title: 'size', ...r }, { title: 'wall ms', ...r }, { title: '× real time', ...r }], synthRows));
  out.push(`\nImport of the renderer: ${synth.map((s) => `${s.format} process ${ms(s.importMs)} ms`).join(', ')}.`);

  const model = rows.find((row) => row.c.name === 'model lookup');
  const mp3 = synth.find((s) => s.format === 'mp3');
  const goalRows: string[][] = [];
  if (model) {
    const share = model.mock.rps / model.bare.rps;
    const { serverCpuUsPerReq: mockUs } = model.mock;
    const { serverCpuUsPerReq: bareUs } = model.bare;
    const byCpu = mockUs !== null && bareUs !== null ? ` (by CPU/req: ${percent(bareUs / mockUs)})` : '';
    goalRows.push([`model lookup ≥ ${percent(GOALS.modelLookupShareOfBare)} of bare req/s`, `${percent(share)}${byCpu}`, verdict(share >= GOALS.modelLookupShareOfBare)]);
  }
  if (mp3) {
    const first = realTime(mp3.first);
    const warm = median(mp3.rest.map(realTime));
    goalRows.push(
      [`cold MP3 synthesis ≥ ${GOALS.coldMp3TimesRealTime}× real time: first render of a process`, times(first), verdict(first >= GOALS.coldMp3TimesRealTime)],
      [`cold MP3 synthesis ≥ ${GOALS.coldMp3TimesRealTime}× real time: uncached, JIT-warm median`, times(warm), verdict(warm >= GOALS.coldMp3TimesRealTime)],
    );
  }
  out.push('', heading('3. Goals'), '', table([{ title: 'goal' }, { title: 'measured', align: 'right' }, { title: 'result' }], goalRows));
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadavg()[0]!;
  const rows = await httpBench();
  const synth = [await synthBench('mp3'), await synthBench('pcm')];
  progress(`done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  printReport(rows, synth, loadAtStart);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    progress(`${signal}: stopping the servers`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
