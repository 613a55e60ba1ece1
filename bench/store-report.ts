/**
 * The shared-store section of the report (bench/store.ts's figures) and its rows of the goals table.
 *
 * @module
 */
import { heading, int, ms, percent, ratio, table, times } from './report.js';
import type { StoreMeasured, StoreResult } from './store.js';

/** The scale-out goal: cold MP3 throughput of `--workers 2` over `--workers 1`, on 2 cores. */
export const STORE_GOALS = { twoWorkersOverOne: 1.4 } as const;

const r = { align: 'right' } as const;
const cpu = (m: StoreMeasured) => (m.serverCpu === null ? 'n/a' : percent(m.serverCpu));
const cpuUs = (m: StoreMeasured) => (m.serverCpuUsPerReq === null ? 'n/a' : m.serverCpuUsPerReq.toFixed(0));
const redisUs = (m: StoreMeasured) => (m.redisCpuUsPerReq === null ? 'n/a' : m.redisCpuUsPerReq.toFixed(0));
const busy = (m: StoreMeasured) => (m.machineBusy === null ? 'n/a' : percent(m.machineBusy));
const failures = (m: StoreMeasured) => m.non2xx + m.errors + m.timeouts;

/** Section 8, or the one line saying why it was skipped (`res` a string). */
export function storeSection(res: StoreResult | string, out: string[], settings: { warmup: number; duration: number; workerDuration: number; rounds: number }): void {
  out.push('', heading('8. Shared store'));
  if (typeof res === 'string') {
    out.push(`SKIPPED: ${res}`);
    return;
  }
  const { warmup, duration, rounds } = settings;
  out.push(
    `A throwaway redis-server ${res.redisVersion} on 127.0.0.1 (no persistence), started and stopped by the bench. Per case and side`,
    `${warmup} s of warm-up, then ${duration} s measured in ${rounds} slice(s), the order of the sides reversed every slice. "server CPU" is`,
    'the CPU time of every process of the side (with --workers, the primary and its workers) per wall second (100% = one',
    'core); "redis µs/req" the redis-server\'s CPU time per request over the same slices.',
    '',
    `a) What shared state costs a request: the CLI in memory against the CLI with --store (one process each), ${res.connections}`,
    '   connections. With a store each API request reads the shared controls (HMGET) and writes its journal entry (a Lua',
    '   script) before it answers.',
    '',
  );
  const rows: string[][] = [];
  for (const { name, memory, store } of res.cost) {
    for (const [side, m] of [['memory', memory], ['--store', store]] as const) {
      rows.push([side === 'memory' ? name : '', side, int(m.rps), ms(m.p50), ms(m.p99), cpu(m), cpuUs(m), redisUs(m), String(failures(m)),
        side === 'memory' ? '' : percent(store.rps / memory.rps), side === 'memory' ? '' : ratio(store.p99 / memory.p99)]);
    }
  }
  out.push(table([{ title: 'case' }, { title: 'side' }, { title: 'req/s', ...r }, { title: 'p50 ms', ...r }, { title: 'p99 ms', ...r }, { title: 'server CPU', ...r },
    { title: 'CPU µs/req', ...r }, { title: 'redis µs/req', ...r }, { title: 'failures', ...r }, { title: 'store ÷ memory req/s', ...r }, { title: '… p99', ...r }], rows));
  out.push(`Machine busy (all cores, anyone) over the slices: ${res.cost.map(({ name, memory, store }) => `${name} ${busy(memory)} / ${busy(store)}`).join('; ')}.`);

  const w = res.workers;
  const audioS = w.audioMs / 1000;
  out.push(
    '',
    `b) Cold MP3 paragraphs (${audioS.toFixed(1)} s of audio each, every input distinct), --store --workers 1 against --store --workers 2`,
    `   (one port, node:cluster), ${w.connections} connections, ${settings.workerDuration} s measured per side in ${rounds} timed slice(s), each started once`,
    '   the side is idle (requests in flight at the end of a slice are not counted; their CPU time is). "audio s/s" =',
    '   seconds of audio served per wall second (req/s × audio length); "× real time (p50)" = audio length / p50 latency',
    '   (queueing behind the other connections included).',
    '',
    table([{ title: 'side' }, { title: 'processes', ...r }, { title: 'requests', ...r }, { title: 'req/s', ...r }, { title: 'audio s/s', ...r },
      { title: 'p50 ms', ...r }, { title: 'p99 ms', ...r }, { title: '× real time (p50)', ...r }, { title: 'server CPU', ...r }, { title: 'CPU ms/req', ...r },
      { title: 'redis µs/req', ...r }, { title: 'failures', ...r }],
    ([['--workers 1', w.one], ['--workers 2', w.two]] as const).map(([side, m]) => [side, String(m.processes), int(m.total), m.rps.toFixed(1),
      (m.rps * audioS).toFixed(0), ms(m.p50), ms(m.p99), times(w.audioMs / m.p50), cpu(m),
      m.serverCpuUsPerReq === null ? 'n/a' : ms(m.serverCpuUsPerReq / 1000), redisUs(m), String(failures(m))])),
    `--workers 2 ÷ --workers 1: ${ratio(w.two.rps / w.one.rps)} req/s. CPU by process (primary, then workers): ` +
      ([['--workers 1', w.one], ['--workers 2', w.two]] as const).map(([side, m]) => `${side} ${m.processCpu.length === 0 ? 'n/a' : m.processCpu.map(percent).join(' / ')}`).join('; ') +
      '; redis-server CPU is not counted in "server CPU". Machine busy (all cores, anyone) over the slices: ' +
      ([['--workers 1', w.one], ['--workers 2', w.two]] as const).map(([side, m]) => `${side} ${busy(m)}`).join(', ') + '.',
  );
}

/**
 * Adds section 8's rows to the goals table: the workers' goal with `goal`, the store's cost per request with
 * `figure` (a figure, not a goal: what a round trip to a store costs depends on where the store is); when the
 * section was skipped, the workers' goal as not measured.
 */
export function storeGoals(
  res: StoreResult | string,
  goal: (label: string, measured: string, pass: boolean, factor: number) => void,
  figure: (label: string, measured: string, result?: string) => void,
): void {
  const want = STORE_GOALS.twoWorkersOverOne;
  if (typeof res === 'string') {
    figure(`cold MP3 --workers 2 ≥ ${ratio(want)} --workers 1 req/s`, 'skipped: no redis-server', 'n/a');
    return;
  }
  for (const { name, memory, store } of res.cost) {
    figure(`${name} with --store ÷ in memory`, `${percent(store.rps / memory.rps)} req/s; p99 ${ms(memory.p99)} → ${ms(store.p99)} ms`);
  }
  const x = res.workers.two.rps / res.workers.one.rps;
  goal(`cold MP3 --workers 2 ≥ ${ratio(want)} --workers 1 req/s (2 cores)`, ratio(x), x >= want, want / x);
}
