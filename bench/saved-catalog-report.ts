/**
 * The saved-catalog section of the report (bench/saved-catalog.ts's figures) and its rows of the goals table.
 *
 * @module
 */
import { bytes, heading, int, mibPerSec, ms, percent, table } from './report.js';
import type { CatalogResult, CatalogRow } from './saved-catalog.js';
import type { Measured } from './load.js';

/**
 * Shares of bare `node:http` req/s: the lookup's is section 1's model lookup goal; the lists' is lower,
 * since their answers are kept as text and encoded to UTF-8 on every write, which the replay does not do.
 */
export const CATALOG_GOALS = { lookupShareOfBare: 0.6, listShareOfBare: 0.5 } as const;

const r = { align: 'right' } as const;
const cpuUs = (m: Measured) => (m.serverCpuUsPerReq === null ? 'n/a' : m.serverCpuUsPerReq.toFixed(1));
const failures = (m: Measured) => m.non2xx + m.errors + m.timeouts;
/** Bare's CPU/req over mockrouter's, as section 1 shows it; `n/a` without procfs. */
const cpuShare = (row: CatalogRow) =>
  row.mock.serverCpuUsPerReq === null || row.bare.serverCpuUsPerReq === null ? 'n/a' : percent(row.bare.serverCpuUsPerReq / row.mock.serverCpuUsPerReq);

/** Section 9. */
export function catalogSection(res: CatalogResult, out: string[], settings: { warmup: number; duration: number; rounds: number }): void {
  out.push(
    '',
    heading('9. Saved catalog'),
    `mockrouter --fixtures <folder holding only models.json>: a saved GET /api/v1/models?output_modalities=all answer of ${int(res.records)}`,
    `records (${bytes(res.fileBytes)}, test/support/saved-catalog.ts), against the bare node:http server replaying its exact answers, as`,
    `section 1. Per case and server ${settings.warmup} s of warm-up, then ${settings.duration} s measured in ${settings.rounds} slice(s), the order reversed every slice,`,
    `${res.connections} connections. "mock ÷ bare": mockrouter's req/s over bare's (and bare's CPU/req over mockrouter's). Where "server`,
    'CPU" is well under 100% (the whole list), the load generator was the limit: CPU/req compares the servers more fairly.',
    '',
  );
  const rows: string[][] = [];
  for (const row of res.rows) {
    for (const [server, m] of [['mockrouter', row.mock], ['bare', row.bare]] as const) {
      const first = server === 'mockrouter';
      rows.push([first ? row.name : '', server, bytes(row.bodyBytes), row.records === null ? '' : String(row.records), int(m.rps), ms(m.p50), ms(m.p99),
        mibPerSec(m.bytesPerSec), m.serverCpu === null ? 'n/a' : percent(m.serverCpu), cpuUs(m), percent(m.clientCpu), String(failures(m)),
        first ? '' : percent(row.mock.rps / row.bare.rps), first ? '' : cpuShare(row)]);
    }
  }
  out.push(table([{ title: 'case' }, { title: 'server' }, { title: 'body', ...r }, { title: 'records', ...r }, { title: 'req/s', ...r }, { title: 'p50 ms', ...r },
    { title: 'p99 ms', ...r }, { title: 'MiB/s', ...r }, { title: 'server CPU', ...r }, { title: 'CPU µs/req', ...r }, { title: 'autocannon CPU', ...r },
    { title: 'failures', ...r }, { title: 'mock ÷ bare req/s', ...r }, { title: '… CPU/req', ...r }], rows));
  const bad = res.rows.filter((row) => failures(row.mock) + failures(row.bare) > 0);
  if (bad.length > 0) out.push('', `FAILURES in ${bad.map((row) => row.name).join(', ')}: the figures of those cases are not comparable.`);
}

/** Adds section 9's goals to the goals table: the lookup ≥ 60% of bare req/s, each list ≥ 50% (CPU/req shown beside). */
export function catalogGoals(res: CatalogResult, goal: (label: string, measured: string, pass: boolean, factor: number) => void): void {
  for (const row of res.rows) {
    const want = row.kind === 'lookup' ? CATALOG_GOALS.lookupShareOfBare : CATALOG_GOALS.listShareOfBare;
    const x = row.mock.rps / row.bare.rps;
    goal(`saved catalog, ${row.name} ≥ ${percent(want)} of bare req/s`, `${percent(x)} (CPU/req: ${cpuShare(row)})`, x >= want, want / x);
  }
}
