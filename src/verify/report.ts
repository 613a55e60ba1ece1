/**
 * `mockrouter verify`'s output: a report to read (a line per request, then the differences grouped by
 * probe) or, with `--json`, the {@link VerifyReport} as one JSON document.
 *
 * @module
 */
import type { Difference, ProbeName, VerifyReport } from './types.js';

/** The `--json` document: the report as it is, one line. */
export function jsonReport(report: VerifyReport): string {
  return `${JSON.stringify(report)}\n`;
}

/** One difference as a sentence: `only upstream has data.context_window`, `data.created: upstream: string, mockrouter: integer`. */
export function differenceLine(difference: Difference): string {
  const { path, kind, upstream, mockrouter } = difference;
  const where = path === '' ? '(the body)' : path;
  if (kind === 'field') return upstream === 'absent' ? `only mockrouter has ${where} (${mockrouter})` : `only upstream has ${where} (${upstream})`;
  const on = difference.request === undefined ? '' : ` [${difference.request}]`;
  return `${where}: upstream: ${upstream}, mockrouter: ${mockrouter} (${kind})${on}`;
}

function status(value: number | null): string {
  return value === null ? '-' : String(value);
}

/**
 * The report to read: a header line, a line per request (`ok`, `DRIFT` when a difference names it or its probe
 * differs in shape, `skip` when not compared, with why, `ERROR` for the upstream answer the check stopped at), then
 * the differences grouped by probe, and a last line saying whether anything drifted, or where the check stopped.
 */
export function textReport(report: VerifyReport): string {
  const drifted = new Set<ProbeName>(report.differences.map((difference) => difference.probe));
  const lines = [`mockrouter verify: ${report.upstream} against mockrouter's built-in catalog`];
  for (const probe of report.probes) {
    const mark = probe.error !== undefined ? 'ERROR' : !probe.compared ? 'skip ' : drifted.has(probe.probe) ? 'DRIFT' : 'ok   ';
    const note = probe.note === undefined ? '' : ` (${probe.note})`;
    lines.push(`  ${mark} ${probe.probe.padEnd(12)} ${probe.request}  upstream ${status(probe.upstream)}, mockrouter ${status(probe.mockrouter)}${note}`);
  }
  if (!report.spend) lines.push('  skip  speech       not sent: speech calls and their generation lookups cost credit (--spend sends them)');
  const stopped = report.error === null ? [] : [`Stopped at ${report.error.probe} (${report.error.code}): the requests after it were not sent.`];
  if (report.differences.length === 0) {
    lines.push('', report.error === null ? 'No drift: every answer compared has the same shape on both sides.' : 'No drift in the answers compared before the check stopped.', ...stopped);
    return `${lines.join('\n')}\n`;
  }
  lines.push('', `Differences (${report.differences.length}):`);
  const groups = new Map<ProbeName, Difference[]>();
  for (const difference of report.differences) groups.set(difference.probe, [...(groups.get(difference.probe) ?? []), difference]);
  for (const [probe, differences] of groups) {
    lines.push(`  ${probe}:`);
    for (const difference of differences) lines.push(`    ${differenceLine(difference)}`);
  }
  lines.push('', `Drift: ${report.differences.length} difference${report.differences.length === 1 ? '' : 's'}.`, ...stopped);
  return `${lines.join('\n')}\n`;
}
