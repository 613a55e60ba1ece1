/**
 * The speech-with-words section of the report (bench/words.ts's figures) and its rows of the goals table.
 *
 * @module
 */
import { heading, int, median, mem, ms, percent, ratio, table, times } from './report.js';
import { PARAGRAPH_WORDS, type WordsResult, type WordsTimed } from './words.js';

/** The goals of speech with words (bench/README.md, section 10). */
export const WORDS_GOALS = {
  /** Warm paragraph MP3, × real time (audio / wall time to the last byte), at least. */
  warmTimesRealTime: 30,
  /** The first request of a fresh process, × real time, at least. */
  coldTimesRealTime: 10,
  /** Time to the first body byte over the time to the last, PCM (streamed piece by piece), at most. */
  firstByteShare: 0.25,
  /** RSS after the renders minus RSS at start, at most (10⁶ bytes). */
  rssGrowthBytes: 200e6,
} as const;

/** Seconds of audio per second of wall time over all of `ts` (sum over sum). */
const realTimeOf = (ts: WordsTimed[]) => ts.reduce((a, t) => a + t.audioMs, 0) / ts.reduce((a, t) => a + t.totalMs, 0);
/** The same over the server's CPU time, `null` without procfs. */
const cpuRealTimeOf = (ts: WordsTimed[]) =>
  ts.some((t) => t.serverCpuMs === null) ? null : ts.reduce((a, t) => a + t.audioMs, 0) / ts.reduce((a, t) => a + t.serverCpuMs!, 0);
const share = (t: WordsTimed) => t.firstByteMs / t.totalMs;
const spread = (values: number[], fmt = ms) => `${fmt(median(values))} (${fmt(Math.min(...values))} … ${fmt(Math.max(...values))})`;
const cpuPerReq = (ts: WordsTimed[]) => (ts.some((t) => t.serverCpuMs === null) ? 'n/a' : ms(ts.reduce((a, t) => a + t.serverCpuMs!, 0) / ts.length));
const orNa = (x: number | null, fmt: (n: number) => string) => (x === null ? 'n/a' : fmt(x));
const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB (${(n / 1e6).toFixed(1)} MB)`;

/** RSS growth over the memory run (after the renders − at start), bytes; `null` without procfs. */
export function rssGrowth(res: WordsResult): number | null {
  const { atStart, afterLoad } = res.memory;
  return atStart && afterLoad ? afterLoad.rss - atStart.rss : null;
}

/** Section 10. */
export function wordsSection(res: WordsResult, out: string[]): void {
  const g = WORDS_GOALS;
  const { warm, cold, memory: m, tones } = res;
  const r = { align: 'right' } as const;
  const row = (name: string, ts: WordsTimed[]) => [
    name,
    String(ts.length),
    spread(ts.map((t) => t.audioMs / 1000), (x) => x.toFixed(1)),
    spread(ts.map((t) => t.firstByteMs)),
    spread(ts.map((t) => t.totalMs)),
    spread(ts.map(share), percent),
    times(realTimeOf(ts)),
    cpuPerReq(ts),
    orNa(cpuRealTimeOf(ts), times),
  ];
  const warmRt = realTimeOf(warm.mp3);
  const coldRts = cold.mp3.map((t) => t.audioMs / t.totalMs);
  out.push(
    '',
    heading('10. Speech with words'),
    `Load average ${res.load[0].toFixed(2)} when the section started, ${res.load[1].toFixed(2)} when it ended. The ${PARAGRAPH_WORDS}-word English paragraph of`,
    'words.ts (five sentences, a distinct last one each time, never cached), voice alloy, one request at a time on a fresh',
    'connection. Warm: a server started with --speech words, one paragraph sent first and not counted, then each input as MP3',
    'and as PCM (alternating which goes first). Cold: the first request of a fresh node bin/mockrouter.js started without',
    '--speech words (its start-up warmUp loads the MP3 encoder only), sent right after the ready line with X-Mock-Speech:',
    `words: it compiles Flite (spawn to ready: ${spread(cold.readyMs)} ms). Audio from the byte count (MP3: 192 bytes a 24 ms frame,`,
    'less the tag frame and LAME\'s two; PCM: 48,000 bytes a second). ms: median (min … max); × real time: total audio / total',
    'wall time to the last byte; "first byte share": first body byte / last byte (MP3 of words is sent whole once said, behind',
    'its tag frame: its share is about 100%; PCM streams piece by piece); server CPU from /proc (all threads).',
    '',
    table([{ title: 'request' }, { title: 'n', ...r }, { title: 'audio s', ...r }, { title: 'first body byte ms', ...r }, { title: 'last byte ms', ...r },
      { title: 'first byte share', ...r }, { title: '× real time', ...r }, { title: 'server CPU ms/req', ...r }, { title: '× real time (CPU)', ...r }], [
      row('words MP3, warm', warm.mp3),
      row('words PCM, warm (same inputs)', warm.pcm),
      row("words MP3, the warm server's first (not counted)", [warm.first]),
      row('words MP3, cold (first of a fresh process)', cold.mp3),
    ]),
    '',
    table([{ title: 'figure' }, { title: 'measured', ...r }, { title: 'goal', ...r }, { title: 'measured ÷ goal', ...r }], [
      ['warm MP3, × real time', times(warmRt), `≥ ${g.warmTimesRealTime}×`, ratio(warmRt / g.warmTimesRealTime)],
      ['cold MP3, × real time, median of the processes', times(median(coldRts)), `≥ ${g.coldTimesRealTime}×`, ratio(median(coldRts) / g.coldTimesRealTime)],
      ['cold MP3, × real time, slowest process', times(Math.min(...coldRts)), `≥ ${g.coldTimesRealTime}×`, ratio(Math.min(...coldRts) / g.coldTimesRealTime)],
      ['warm PCM, first byte share, median', percent(median(warm.pcm.map(share))), `≤ ${percent(g.firstByteShare)}`, ratio(median(warm.pcm.map(share)) / g.firstByteShare)],
      ['warm PCM, first byte share, largest', percent(Math.max(...warm.pcm.map(share))), `≤ ${percent(g.firstByteShare)}`, ratio(Math.max(...warm.pcm.map(share)) / g.firstByteShare)],
      ['warm MP3, first byte share, median (sent whole once said)', percent(median(warm.mp3.map(share))), '', ''],
    ]),
    `Warm MP3 ÷ PCM (same inputs), × real time: ${ratio(warmRt / realTimeOf(warm.pcm))}; cold ÷ warm MP3: ${ratio(realTimeOf(cold.mp3) / warmRt)}.`,
  );

  const growth = rssGrowth(res);
  const fmt = (p: { rss: number; peak: number } | null) => (p ? mem(p.rss) : 'n/a (no /proc)');
  out.push(
    '',
    `Resident memory: a fresh --speech words server (RSS at start: ready line, then 2 s idle, Flite compiled by warmUp); one`,
    `sentence rendered, then ${int(m.renders)} distinct 11-word sentences (about ${((m.audioMs / m.renders) / 1000).toFixed(1)} s of audio each), MP3 and PCM alternating,`,
    `${m.connections} keep-alive connections: ${(m.renders / (m.wallMs / 1000)).toFixed(1)} renders a second, ${times(m.audioMs / m.wallMs)} real time over the run` +
      (m.serverCpuMs === null ? '.' : ` (server CPU ${ms(m.serverCpuMs / m.renders)} ms a render, ${times(m.audioMs / m.serverCpuMs)} real time per CPU second).`),
    '',
    table([{ title: 'when' }, { title: 'VmRSS', ...r }, { title: 'VmHWM (peak)', ...r }], [
      ['at start', fmt(m.atStart), m.atStart ? mem(m.atStart.peak) : ''],
      ['after the first render', fmt(m.afterFirst), m.afterFirst ? mem(m.afterFirst.peak) : ''],
      [`after ${int(m.renders)} renders`, fmt(m.afterLoad), m.afterLoad ? mem(m.afterLoad.peak) : ''],
      ['2 s later, idle', fmt(m.settled), m.settled ? mem(m.settled.peak) : ''],
    ]),
    growth === null ? 'RSS growth: n/a' : `RSS growth (after the renders − at start): ${mib(growth)}; goal ≤ ${g.rssGrowthBytes / 1e6} MB: ${ratio(growth / g.rssGrowthBytes)} of it.`,
  );

  const plainRt = realTimeOf(tones.plain);
  const wordsRt = realTimeOf(tones.wordsServer);
  const cpu = (ts: WordsTimed[]) => (ts.some((t) => t.serverCpuMs === null) ? null : ts.reduce((a, t) => a + t.serverCpuMs!, 0) / ts.length);
  const plainCpu = cpu(tones.plain);
  const wordsCpu = cpu(tones.wordsServer);
  out.push(
    '',
    `Tones lose nothing: the paragraph as tones MP3, a distinct input each time (cold), ${tones.plain.length} per server, alternating request by`,
    'request, after one discarded request each: a server started the default way against one started with --speech words',
    'and asked X-Mock-Speech: tones. The audio length is the plan\'s (the byte count checked against it).',
    '',
    table([{ title: 'server' }, { title: 'n', ...r }, { title: 'audio s', ...r }, { title: 'last byte ms', ...r }, { title: '× real time', ...r }, { title: 'server CPU ms/req', ...r }], [
      ['default (tones)', String(tones.plain.length), (median(tones.plain.map((t) => t.audioMs)) / 1000).toFixed(1), spread(tones.plain.map((t) => t.totalMs)), times(plainRt), cpuPerReq(tones.plain)],
      ['--speech words, X-Mock-Speech: tones', String(tones.wordsServer.length), (median(tones.wordsServer.map((t) => t.audioMs)) / 1000).toFixed(1), spread(tones.wordsServer.map((t) => t.totalMs)), times(wordsRt), cpuPerReq(tones.wordsServer)],
    ]),
    `words server ÷ default, × real time: ${ratio(wordsRt / plainRt)}; CPU per request: ${plainCpu === null || wordsCpu === null ? 'n/a' : ratio(wordsCpu / plainCpu)}.`,
  );
}

export type Goal = (label: string, measured: string, pass: boolean, factor: number) => void;
export type Figure = (label: string, measured: string, result?: string) => void;

/** Adds section 10's goals (and the tones comparison, a figure) to the goals table. */
export function wordsGoals(res: WordsResult, goal: Goal, figure: Figure): void {
  const g = WORDS_GOALS;
  const warm = realTimeOf(res.warm.mp3);
  const pcm = realTimeOf(res.warm.pcm);
  goal(`words: ${PARAGRAPH_WORDS}-word paragraph MP3, warm ≥ ${g.warmTimesRealTime}× real time (PCM: ${times(pcm)})`, times(warm), warm >= g.warmTimesRealTime, g.warmTimesRealTime / warm);
  const coldRts = res.cold.mp3.map((t) => t.audioMs / t.totalMs);
  const coldMed = median(coldRts);
  const coldMin = Math.min(...coldRts);
  goal(`words: the paragraph MP3, cold (fresh process) ≥ ${g.coldTimesRealTime}× real time, median`, times(coldMed), coldMed >= g.coldTimesRealTime, g.coldTimesRealTime / coldMed);
  goal(`words: the paragraph MP3, cold ≥ ${g.coldTimesRealTime}× real time, slowest of ${coldRts.length}`, times(coldMin), coldMin >= g.coldTimesRealTime, g.coldTimesRealTime / coldMin);
  const shares = res.warm.pcm.map(share);
  goal(`words: first byte ≤ ${percent(g.firstByteShare)} of the paragraph PCM's time, warm median (MP3, sent whole: ${percent(median(res.warm.mp3.map(share)))})`, percent(median(shares)),
    median(shares) <= g.firstByteShare, median(shares) / g.firstByteShare);
  goal(`words: first byte ≤ ${percent(g.firstByteShare)} of the paragraph PCM's time, warm, largest of ${shares.length}`, percent(Math.max(...shares)),
    Math.max(...shares) <= g.firstByteShare, Math.max(...shares) / g.firstByteShare);
  const growth = rssGrowth(res);
  const label = `words: RSS growth ≤ ${g.rssGrowthBytes / 1e6} MB after ${int(res.memory.renders)} word renders`;
  if (growth === null) figure(label, 'not measured (no /proc)', 'n/a');
  else goal(label, `${(growth / 1e6).toFixed(1)} MB`, growth <= g.rssGrowthBytes, growth / g.rssGrowthBytes);
  const plain = realTimeOf(res.tones.plain);
  const words = realTimeOf(res.tones.wordsServer);
  figure(`words: tones MP3 on a --speech words server ÷ a default server, × real time (default: ${times(plain)})`, ratio(words / plain));
}
