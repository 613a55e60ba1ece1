/**
 * The transcription section of the report (bench/transcription.ts's figures) and its rows of the goals table.
 *
 * @module
 */
import { heading, int, ms, table } from './report.js';
import type { Figure, Goal } from './words-report.js';
import type { TranscriptionResult } from './transcription.js';

/** The goals of transcription (bench/README.md, section 11). */
export const TRANSCRIPTION_GOALS = {
  /** The mock's answer time minus the baseline's (the upload and the client's share), median, ms, at most. */
  answerMs: 20,
  /** RSS after the distinct transcriptions minus RSS once their audio was said, at most (10⁶ bytes). */
  rssGrowthBytes: 50e6,
} as const;

/** Section 11. */
export function transcriptionSection(res: TranscriptionResult, out: string[]): void {
  const r = { align: 'right' } as const;
  out.push(
    '',
    heading('11. Transcription'),
    `60 s clips to POST /api/v1/audio/transcriptions (openai/whisper-1), ${res.runs} requests of each case to the mock and to the`,
    'baseline, alternating, one at a time over a keep-alive connection: the bare node:http server, which reads the same body to',
    'its end and replays the mock\'s recorded answer. "mock − bare" is the mock\'s own work (the upload and the client are in',
    'both). Said: audio the mock said (tones) of a ~900-character input; foreign: a WAV of seeded noise, and seeded bytes named',
    'webm (length by size). ms: median / p95.',
    '',
    table(
      [{ title: 'case' }, { title: 'body MB', ...r }, { title: 'mock ms', ...r }, { title: 'bare ms', ...r }, { title: 'mock − bare ms (median)', ...r }, { title: 'mock ÷ bare', ...r }],
      res.cases.map((c) => [
        c.name,
        (c.bytes / 1e6).toFixed(2),
        `${ms(c.mock.median)} / ${ms(c.mock.p95)}`,
        `${ms(c.bare.median)} / ${ms(c.bare.p95)}`,
        ms(c.mock.median - c.bare.median),
        `${(c.mock.median / c.bare.median).toFixed(2)}×`,
      ]),
    ),
  );
  if (res.memory) {
    const m = res.memory;
    out.push(
      '',
      `Memory: RSS ${(m.startRss / 1e6).toFixed(1)} MB when ready, ${(m.saidRss / 1e6).toFixed(1)} MB once ${int(m.distinct)} distinct clips were said (the baseline),`,
      `${(m.afterRss / 1e6).toFixed(1)} MB after transcribing them and ${int(m.distinct)} distinct foreign clips: +${((m.afterRss - m.saidRss) / 1e6).toFixed(1)} MB.`,
    );
  }
}

/** The goals' rows. */
export function transcriptionGoals(res: TranscriptionResult, goal: Goal, figure: Figure): void {
  const g = TRANSCRIPTION_GOALS;
  for (const c of res.cases) {
    const own = c.mock.median - c.bare.median;
    goal(`transcription: ${c.name} ≤ ${g.answerMs} ms plus the upload (median)`, `${ms(own)} ms`, own <= g.answerMs, own / g.answerMs);
  }
  const label = `transcription: RSS growth ≤ ${g.rssGrowthBytes / 1e6} MB after ${res.memory ? int(res.memory.distinct * 2) : 'n'} distinct transcriptions`;
  if (!res.memory || res.memory.saidRss === 0) figure(label, 'not measured', 'n/a');
  else {
    const growth = res.memory.afterRss - res.memory.saidRss;
    goal(label, `${(growth / 1e6).toFixed(1)} MB`, growth <= g.rssGrowthBytes, growth / g.rssGrowthBytes);
  }
}
