/**
 * The words-under-load section of the report (bench/words-load.ts's figures) and its rows of the goals table.
 *
 * @module
 */
import { heading, median, ms, ratio, table, times } from './report.js';
import { THROUGHPUT_ROUNDS, type LoadStep, type ThroughputRound, type WordsLoadResult } from './words-load.js';
import type { Figure, Goal } from './words-report.js';
import { WORDS_LIMIT_MS, WORDS_LIMIT_PIECES } from '../src/core/audio/words/render-words.js';

/** The goals of speech with words under load (issue "words off the main thread"; bench/README.md, section 12). */
export const WORDS_LOAD_GOALS = {
  /** A model lookup's p99 while paragraphs are said, ms, at most. */
  lookupP99Ms: 30,
  /** Words throughput with 4 at once ÷ 1 at a time, at least. */
  fourOverOne: 1.5,
  /** Server CPU of one request, whatever its input, ms, at most. */
  requestCpuMs: 10_000,
} as const;

/** The `p`-th percentile (0–1) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const throughput = (s: LoadStep) => (s.wallMs > 0 ? s.audioMs / s.wallMs : NaN);
/** The median over rounds of 4 at once's throughput ÷ 1 at a time's (the throughput alone, without lookups). */
function aloneGain(rounds: ThroughputRound[]): number {
  return median(rounds.map((r) => r.fourAtOnce.audioMs / r.fourAtOnce.wallMs / (r.oneAtATime.audioMs / r.oneAtATime.wallMs)));
}

const at = (steps: LoadStep[], concurrency: number) => steps.find((s) => s.concurrency === concurrency);

/** Section 12. */
export function wordsLoadSection(res: WordsLoadResult, out: string[]): void {
  const r = { align: 'right' } as const;
  const rows: string[][] = [];
  for (const pool of res.steps.pool) {
    const none = at(res.steps.none, pool.concurrency)!;
    const name = pool.concurrency === 0 ? 'idle' : `${pool.concurrency} paragraph${pool.concurrency === 1 ? '' : 's'} at once`;
    rows.push([
      name,
      String(pool.lookupMs.length),
      `${ms(median(pool.lookupMs))} / ${ms(percentile(pool.lookupMs, 0.99))}`,
      `${ms(median(none.lookupMs))} / ${ms(percentile(none.lookupMs, 0.99))}`,
      ratio(percentile(pool.lookupMs, 0.99) / percentile(none.lookupMs, 0.99)),
      pool.concurrency === 0 ? '' : times(throughput(pool)),
      pool.concurrency === 0 ? '' : times(throughput(none)),
      pool.concurrency === 0 ? '' : ratio(throughput(pool) / throughput(none)),
    ]);
  }
  out.push(
    '',
    heading('12. Speech with words under load'),
    `Load average ${res.load[0].toFixed(2)} when the section started, ${res.load[1].toFixed(2)} when it ended; ${res.cores} cores. Two --speech words servers,`,
    `one with --words-threads ${res.threads} (words said on worker threads) and one with --words-threads 0 (said on the thread that`,
    'answers requests, the baseline), measured one after the other at each step (alternating which goes first). Each step:',
    'distinct 120-word paragraphs as MP3 (about 40 s of audio each), each on its own connection, all sent at once, while one',
    'keep-alive connection sends model lookups back to back (1 ms apart) until the last paragraph ended. Throughput: the audio',
    'of all the paragraphs over the wall time from the first request to the last byte, × real time.',
    '',
    table([{ title: 'while' }, { title: 'lookups', ...r }, { title: `lookup p50 / p99 ms, ${res.threads} threads`, ...r }, { title: 'no threads', ...r },
      { title: 'p99 ratio', ...r }, { title: `words × real time, ${res.threads} threads`, ...r }, { title: 'no threads', ...r }, { title: 'ratio', ...r }], rows),
  );
  const one = at(res.steps.pool, 1);
  const four = at(res.steps.pool, 4);
  const oneNone = at(res.steps.none, 1);
  const fourNone = at(res.steps.none, 4);
  if (one && four && oneNone && fourNone) {
    out.push(`4 at once ÷ 1 at a time while the lookups run, words × real time: ${ratio(throughput(four) / throughput(one))} with threads, ${ratio(throughput(fourNone) / throughput(oneNone))} without.`);
  }
  const aloneRows = (['pool', 'none'] as const).flatMap((side) =>
    res.throughput[side].map((round, i) => [
      side === 'pool' ? `${res.threads} threads` : 'no threads',
      String(i + 1),
      times(round.oneAtATime.audioMs / round.oneAtATime.wallMs),
      times(round.fourAtOnce.audioMs / round.fourAtOnce.wallMs),
      ratio(round.fourAtOnce.audioMs / round.fourAtOnce.wallMs / (round.oneAtATime.audioMs / round.oneAtATime.wallMs)),
    ]),
  );
  out.push(
    '',
    `Throughput alone, with no lookups running (they keep part of a core busy, which 4 at once needs and 1 at a time leaves`,
    `idle): 4 distinct paragraphs one after another, then 4 at once, ${THROUGHPUT_ROUNDS} rounds alternating which goes first, each server in turn.`,
    '',
    table([{ title: 'server' }, { title: 'round', ...r }, { title: '1 at a time × real time', ...r }, { title: '4 at once', ...r }, { title: '4 ÷ 1', ...r }], aloneRows),
    `4 at once ÷ 1 at a time alone, median of the rounds: ${ratio(aloneGain(res.throughput.pool))} with threads, ${ratio(aloneGain(res.throughput.none))} without.`,
  );
  const worstRows = res.worst.map((w) => [
    w.name,
    String(w.speed),
    w.cpuMs === null ? 'n/a' : (w.cpuMs / 1000).toFixed(2),
    (w.wallMs / 1000).toFixed(2),
    (w.audioMs / 1000).toFixed(0),
    w.words ? (w.words.said_ms / 1000).toFixed(0) : 'n/a',
    w.words?.limited ? `${(w.words.limited.at_ms / 1000).toFixed(0)} s, ${w.words.limited.chars} chars left to tones` : 'no',
  ]);
  out.push(
    '',
    `The worst inputs found, one at a time as MP3 on the server with threads: its CPU time over the request (all threads, from /proc),`,
    'the audio answered, the speech Flite said (the journal\'s audio.words.said_ms) and where the limit on words per answer took',
    `effect (${WORDS_LIMIT_MS / 1000} s of speech or ${WORDS_LIMIT_PIECES} pieces; docs/speech.md).`,
    '',
    table([{ title: 'input' }, { title: 'speed', ...r }, { title: 'server CPU s', ...r }, { title: 'wall s', ...r }, { title: 'audio s', ...r }, { title: 'said in words s', ...r }, { title: 'limit' }], worstRows),
  );
}

/** Adds section 12's goals to the goals table. */
export function wordsLoadGoals(res: WordsLoadResult, goal: Goal, figure: Figure): void {
  const g = WORDS_LOAD_GOALS;
  for (const step of res.steps.pool.filter((s) => s.concurrency > 0)) {
    const p99 = percentile(step.lookupMs, 0.99);
    const none = percentile(at(res.steps.none, step.concurrency)!.lookupMs, 0.99);
    goal(`words: model lookup p99 ≤ ${g.lookupP99Ms} ms while ${step.concurrency} paragraph(s) are said (no threads: ${ms(none)} ms)`, `${ms(p99)} ms`, p99 <= g.lookupP99Ms, p99 / g.lookupP99Ms);
  }
  if (res.throughput.pool.length > 0) {
    const gain = aloneGain(res.throughput.pool);
    goal(`words: 4 paragraphs at once ≥ ${g.fourOverOne}× the audio per second of 1 at a time (alone, median of ${res.throughput.pool.length})`, ratio(gain), gain >= g.fourOverOne, g.fourOverOne / gain);
  }
  const one = at(res.steps.pool, 1);
  const four = at(res.steps.pool, 4);
  if (one && four) figure('words: 4 paragraphs at once ÷ 1 at a time, while the lookups run', ratio(throughput(four) / throughput(one)));
  const measured = res.worst.filter((w) => w.cpuMs !== null);
  if (measured.length === 0) figure(`words: no request over ${g.requestCpuMs / 1000} s of CPU`, 'not measured (no /proc)', 'n/a');
  else {
    const worst = measured.reduce((a, b) => (b.cpuMs! > a.cpuMs! ? b : a));
    goal(`words: no request over ${g.requestCpuMs / 1000} s of CPU (worst: ${worst.name}, speed ${worst.speed})`, `${(worst.cpuMs! / 1000).toFixed(2)} s`, worst.cpuMs! <= g.requestCpuMs, worst.cpuMs! / g.requestCpuMs);
  }
}
