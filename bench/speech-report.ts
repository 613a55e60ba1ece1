/**
 * The speech section of the report (bench/speech.ts's figures) and its rows of the goals table.
 *
 * @module
 */
import { heading, median, ms, ratio, table, times } from './report.js';
import { LONG_CHARS, REAL_TIME_CHARS, type SpeechResult, type Timed } from './speech.js';

/** The streamed-speech goals (bench/README.md, "Goals"). */
export const SPEECH_GOALS = { realTime: 200, overLamejs: 3, firstByteMs: 30, longTotalMs: 1500, probeP99Ms: 30, firstMp3Ms: 150 } as const;

/** Seconds of audio per second of wall time over all of `ts` (sum over sum). */
export const realTimeOf = (ts: Timed[]) => ts.reduce((a, t) => a + t.audioMs, 0) / ts.reduce((a, t) => a + t.totalMs, 0);

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? NaN;
}

const r = { align: 'right' } as const;
const cpuPerReq = (ts: Timed[]) => (ts.some((t) => t.serverCpuMs === null) ? 'n/a' : ms(ts.reduce((a, t) => a + t.serverCpuMs!, 0) / ts.length));
const spread = (values: number[]) => `${ms(median(values))} (${ms(Math.min(...values))} … ${ms(Math.max(...values))})`;

export function speechSection(s: SpeechResult, out: string[]): void {
  const rt = s.realTime;
  const lam = realTimeOf(rt.lamejs);
  const mock = realTimeOf(rt.mock);
  out.push(
    '',
    heading('7. Speech over HTTP'),
    `a) Cold MP3, distinct ${REAL_TIME_CHARS}-character inputs (${(rt.mock[0]?.audioMs ?? 0) / 1000} s of audio each), one at a time, a fresh connection each,`,
    `request to last byte. mockrouter (the CLI, --seed 1) against bench/lamejs-server.ts (the old way: synthesize whole with`,
    `dist/'s synthesizeSamples, encode whole with @breezystack/lamejs, Info tag in front; bare node:http, no routing), the`,
    `same input on both, alternating which goes first. × real time = total audio / total wall time. Each server's first`,
    `request (the process's first MP3: encoder load, JIT) is shown apart and not counted. Beside them, not a goal: the same`,
    `input as PCM from mockrouter (no encoder: what HTTP, routing, planning and synthesis cost). Server CPU from /proc.`,
    '',
    table([{ title: 'server' }, { title: 'requests', ...r }, { title: 'ms per request: median (min … max)', ...r }, { title: '× real time', ...r },
      { title: 'server CPU ms/req', ...r }, { title: 'first request ms', ...r }], [
      ['mockrouter MP3 (WASM LAME, streamed)', String(rt.mock.length), spread(rt.mock.map((t) => t.totalMs)), times(mock), cpuPerReq(rt.mock), ms(rt.firstMock.totalMs)],
      ['lamejs baseline MP3 (whole render)', String(rt.lamejs.length), spread(rt.lamejs.map((t) => t.totalMs)), times(lam), cpuPerReq(rt.lamejs), ms(rt.firstLamejs.totalMs)],
      ['mockrouter PCM (same inputs)', String(rt.pcm.length), spread(rt.pcm.map((t) => t.totalMs)), times(realTimeOf(rt.pcm)), cpuPerReq(rt.pcm), ''],
    ]),
    `mockrouter ÷ lamejs: ${ratio(mock / lam)}.`,
    '',
    `b) A ${LONG_CHARS}-character input (${(median(s.long.mp3.map((t) => t.audioMs)) / 1000).toFixed(0)} s of audio), cold, ${s.long.mp3.length} distinct inputs; each sent as MP3 and as PCM to`,
    'mockrouter and as MP3 to the lamejs baseline. Headers / first body byte / last byte, ms from the request: median (min … max).',
    'The honest baseline for the first byte is the PCM (same server, same plan, no encoder: what streaming costs before any',
    "MP3 work); for the total, the lamejs whole render (the old implementation's first byte was its last).",
    '',
    table([{ title: 'request' }, { title: 'headers', ...r }, { title: 'first body byte', ...r }, { title: 'last byte', ...r }, { title: '× real time', ...r }],
      ([['mockrouter MP3', s.long.mp3], ['mockrouter PCM', s.long.pcm], ['lamejs MP3 (whole)', s.long.lamejs]] as const).map(([name, ts]) => [
        name, spread(ts.map((t) => t.headersMs)), spread(ts.map((t) => t.firstByteMs)), spread(ts.map((t) => t.totalMs)), times(realTimeOf([...ts])),
      ])),
    '',
    `c) GET /__mock/health and the model lookup, alternating, 1 ms apart, on one keep-alive connection, while ${s.probes.renders} ${LONG_CHARS}-character`,
    `MP3s render (one after the other; ${s.probes.renderMs.map((x) => ms(x)).join(', ')} ms each), then as many with nothing rendering. ms:`,
    '',
    table([{ title: 'probe' }, { title: 'while rendering: n', ...r }, { title: 'p50', ...r }, { title: 'p99', ...r }, { title: 'max', ...r },
      { title: 'idle: n', ...r }, { title: 'p50', ...r }, { title: 'p99', ...r }, { title: 'max', ...r }],
      (['health', 'model'] as const).map((k) => {
        const d = s.probes.during[k];
        const i = s.probes.idle[k];
        return [k === 'health' ? 'GET /__mock/health' : 'model lookup', String(d.length), ms(median(d)), ms(p99(d)), ms(Math.max(...d)), String(i.length), ms(median(i)), ms(p99(i)), ms(Math.max(...i))];
      })),
    '',
    `d) A fresh \`node bin/mockrouter.js\` per request, the request sent right after the ready line (spawn to ready: ${spread(s.fresh.readyMs)} ms):`,
    'a sentence (56 characters, 3.7 s) as MP3, then a second distinct sentence in the same process; and, in other fresh processes,',
    'the first request a PCM sentence. Request to last byte, ms, median (min … max):',
    '',
    table([{ title: 'request' }, { title: 'n', ...r }, { title: 'first body byte', ...r }, { title: 'last byte', ...r }], [
      ['first MP3 of the process', String(s.fresh.mp3First.length), spread(s.fresh.mp3First.map((t) => t.firstByteMs)), spread(s.fresh.mp3First.map((t) => t.totalMs))],
      ['second MP3 of that process', String(s.fresh.mp3Second.length), spread(s.fresh.mp3Second.map((t) => t.firstByteMs)), spread(s.fresh.mp3Second.map((t) => t.totalMs))],
      ['first PCM of the process', String(s.fresh.pcmFirst.length), spread(s.fresh.pcmFirst.map((t) => t.firstByteMs)), spread(s.fresh.pcmFirst.map((t) => t.totalMs))],
    ]),
    '',
    `Where the first MP3's time goes, no HTTP (bench/first-mp3.ts, ${s.fresh.breakdown.length} fresh processes, median ms): the server has already`,
    'imported the audio modules before its ready line; the rest is paid by the first MP3 request.',
    '',
    table([{ title: 'step' }, { title: 'ms', ...r }], ([
      ['import dist/core/audio modules (before ready)', 'importAudioMs'],
      ['read wasm-media-encoders/wasm/mp3 (Node.js platform)', 'readWasmMs'],
      ['loadMp3Encoder rest: compile, instantiate', 'instantiateMs'],
      ['plan the sentence', 'planMs'],
      ['first piece: tag frame + first LAME open', 'openMs'],
      ['synthesize + encode 3.7 s (first time: cold wasm/JIT)', 'encodeMs'],
      ['a second MP3 sentence: first piece (LAME open, warm)', 'secondOpenMs'],
      ['a second MP3 sentence, whole (warm)', 'secondMp3Ms'],
      ['then a PCM sentence, whole (warm synthesis)', 'pcmMs'],
    ] as const).map(([label, key]) => [label, ms(median(s.fresh.breakdown.map((b) => b[key])))])),
  );
}

type Goal = (label: string, measured: string, pass: boolean, factor: number) => void;

export function speechGoals(s: SpeechResult, goal: Goal): void {
  const g = SPEECH_GOALS;
  const mock = realTimeOf(s.realTime.mock);
  const lam = realTimeOf(s.realTime.lamejs);
  goal(`cold MP3 over HTTP ≥ ${g.realTime}× real time (lamejs: ${times(lam)})`, times(mock), mock >= g.realTime, g.realTime / mock);
  goal(`cold MP3 over HTTP ≥ ${g.overLamejs}× the lamejs figure`, ratio(mock / lam), mock / lam >= g.overLamejs, g.overLamejs / (mock / lam));
  const first = s.long.mp3.map((t) => t.firstByteMs);
  const pcmFirst = median(s.long.pcm.map((t) => t.firstByteMs));
  goal(`${LONG_CHARS}-char MP3, cold: first byte ≤ ${g.firstByteMs} ms, median (PCM: ${ms(pcmFirst)} ms)`, `${ms(median(first))} ms`, median(first) <= g.firstByteMs, median(first) / g.firstByteMs);
  goal(`${LONG_CHARS}-char MP3, cold: first byte ≤ ${g.firstByteMs} ms, slowest of ${first.length}`, `${ms(Math.max(...first))} ms`, Math.max(...first) <= g.firstByteMs, Math.max(...first) / g.firstByteMs);
  const total = median(s.long.mp3.map((t) => t.totalMs));
  const lamTotal = median(s.long.lamejs.map((t) => t.totalMs));
  goal(`${LONG_CHARS}-char MP3, cold: total ≤ ${g.longTotalMs} ms, median (lamejs: ${ms(lamTotal)} ms)`, `${ms(total)} ms`, total <= g.longTotalMs, total / g.longTotalMs);
  for (const k of ['health', 'model'] as const) {
    const x = p99(s.probes.during[k]);
    const label = k === 'health' ? 'GET /__mock/health' : 'model lookup';
    goal(`${label} p99 ≤ ${g.probeP99Ms} ms during a ${LONG_CHARS}-char MP3 (idle: ${ms(p99(s.probes.idle[k]))} ms)`, `${ms(x)} ms`, x <= g.probeP99Ms, x / g.probeP99Ms);
  }
  const fm = s.fresh.mp3First.map((t) => t.totalMs);
  const pcm = median(s.fresh.pcmFirst.map((t) => t.totalMs));
  const second = median(s.fresh.mp3Second.map((t) => t.totalMs));
  goal(`first MP3 of a fresh process ≤ ${g.firstMp3Ms} ms, median (PCM ${ms(pcm)}, 2nd MP3 ${ms(second)})`, `${ms(median(fm))} ms`, median(fm) <= g.firstMp3Ms, median(fm) / g.firstMp3Ms);
  goal(`first MP3 of a fresh process ≤ ${g.firstMp3Ms} ms, slowest of ${fm.length}`, `${ms(Math.max(...fm))} ms`, Math.max(...fm) <= g.firstMp3Ms, Math.max(...fm) / g.firstMp3Ms);
}
