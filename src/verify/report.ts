/**
 * `mockrouter verify`'s output: a report to read (a line per request, then the differences grouped by
 * probe) or, with `--json`, the {@link VerifyReport} as one JSON document.
 *
 * @module
 */
import type { Difference, ProbeName, ProbeResult, VerifyReport } from './types.js';

/** The `--json` document: the report as it is, one line. */
export function jsonReport(report: VerifyReport): string {
  return `${JSON.stringify(report)}\n`;
}

/**
 * One difference as a sentence: `only upstream has data.new_field (integer)`, `renamed upstream: data.context_length →
 * data.context_window (integer)`, `data.created: upstream: string, mockrouter: integer (type)`; followed by the
 * requests it was seen on, when it names them (`[GET /api/v1/model/openai/gpt-4o-mini-tts-2025-12-15]`).
 */
export function differenceLine(difference: Difference): string {
  const { path, kind, upstream, mockrouter } = difference;
  const where = path === '' ? '(the body)' : path;
  const seen = difference.request === undefined ? (difference.requests ?? []) : [difference.request];
  const on = seen.length === 0 ? '' : ` [${seen.join(', ')}]`;
  if (kind === 'field') return `${upstream === 'absent' ? `only mockrouter has ${where} (${mockrouter})` : `only upstream has ${where} (${upstream})`}${on}`;
  if (kind === 'renamed') return `renamed upstream: ${difference.from ?? '?'} → ${where} (${upstream})${on}`;
  return `${where}: upstream: ${upstream}, mockrouter: ${mockrouter} (${kind})${on}`;
}

/**
 * The differences request `probe` shows: those of its probe that name its request, or name no request (a shape
 * difference that every request of the probe shows).
 */
function differencesOf(probe: ProbeResult, differences: readonly Difference[]): Difference[] {
  return differences.filter((difference) => {
    if (difference.probe !== probe.probe) return false;
    if (difference.request !== undefined) return difference.request === probe.request;
    return difference.requests === undefined || difference.requests.includes(probe.request);
  });
}

function status(value: number | null): string {
  return value === null ? '-' : String(value);
}

/**
 * The report to read: a header line, a line per request (`ok`, `DRIFT` with how many differences it shows: those
 * that name it, and its probe's shape differences that every request of it shows; `skip` when not compared, with
 * why, `ERROR` for the upstream answer the check stopped at), then the differences grouped by probe, each naming the
 * requests it was seen on when not all of its probe's, and a last line saying whether anything drifted, or where
 * the check stopped.
 */
export function textReport(report: VerifyReport): string {
  const lines = [`mockrouter verify: ${report.upstream} against mockrouter's built-in catalog`];
  // The probe column as wide as its longest name (`speech-models`), so the requests line up.
  const width = Math.max('speech'.length, ...report.probes.map((probe) => probe.probe.length));
  for (const probe of report.probes) {
    const shown = probe.compared ? differencesOf(probe, report.differences).length : 0;
    const mark = probe.error !== undefined ? 'ERROR' : !probe.compared ? 'skip ' : shown > 0 ? 'DRIFT' : 'ok   ';
    const notes = [...(probe.note === undefined ? [] : [probe.note]), ...(shown > 0 ? [`${shown} difference${shown === 1 ? '' : 's'}`] : [])];
    const note = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
    lines.push(`  ${mark} ${probe.probe.padEnd(width)} ${probe.request}  upstream ${status(probe.upstream)}, mockrouter ${status(probe.mockrouter)}${note}`);
  }
  if (!report.spend) lines.push(`  skip  ${'speech'.padEnd(width)} not sent: speech calls and their generation lookups cost credit (--spend sends them)`);
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
