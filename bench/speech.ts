/**
 * The streamed-speech goals (bench/README.md, "Goals"), over HTTP against the standalone server, each beside its baseline in the same run:
 *
 * 1. cold MP3 real-time factor: distinct 10 s inputs one at a time, mockrouter against bench/lamejs-server.ts
 *    (the old implementation: whole render, lamejs), alternating request by request;
 * 2. a 4,000-character MP3, cold: time to the first body byte and to the last, beside the same input as PCM on
 *    mockrouter and as MP3 on the lamejs server (whose first byte is its last: it renders whole);
 * 3. `GET /__mock/health` and the model lookup, back to back on one keep-alive connection, while a 4,000-character
 *    MP3 renders, beside the same probes with nothing rendering;
 * 4. the first MP3 (a sentence) of a fresh `node bin/mockrouter.js`, sent right after its ready line, beside the
 *    second MP3 of that process and the first PCM of another fresh process; first-mp3.ts splits the cost.
 *
 * Report and goals: speech-report.ts.
 *
 * @module
 */
import { Agent, request } from 'node:http';
import { MODEL_LOOKUP, speechOf, type Format } from './cases.js';
import type { BenchRequest, Target } from './targets.js';
import { cpuTimeMs, runScript, startLamejs, startMock, stopChild } from './targets.js';
import { sentence, words } from './texts.js';
import type * as Plan from '../src/core/audio/plan.js';
import type * as Mp3Tag from '../src/core/audio/mp3-tag.js';
import type { FirstMp3Breakdown } from './first-mp3.js';

const { planSpeech } = (await import(new URL('../dist/core/audio/plan.js', import.meta.url).href)) as typeof Plan;
const { mp3ByteLength } = (await import(new URL('../dist/core/audio/mp3-tag.js', import.meta.url).href)) as typeof Mp3Tag;

/** One timed exchange, ms from the request's start. */
export interface Timed {
  status: number;
  bytes: number;
  headersMs: number;
  /** First body byte (the headers' time for an empty body). */
  firstByteMs: number;
  totalMs: number;
  /** Audio length of the input, ms (from the plan: voice alloy, speed 1, seed 1 like the bench's mock). */
  audioMs: number;
  /** The server's CPU time over the exchange, ms (10 ms resolution: sum many); `null` without procfs. */
  serverCpuMs: number | null;
}

export interface SpeechResult {
  /** Goal 1: first request of each process (not in `mock`/`lamejs`), then the measured ones. */
  realTime: { firstMock: Timed; firstLamejs: Timed; mock: Timed[]; lamejs: Timed[]; pcm: Timed[] };
  /** Goal 2: per distinct 4,000-character input. */
  long: { chars: number; mp3: Timed[]; pcm: Timed[]; lamejs: Timed[] };
  /** Goal 3: latencies in ms. */
  probes: { renders: number; renderMs: number[]; during: Record<Probe, number[]>; idle: Record<Probe, number[]> };
  /** Goal 4: request to last byte, ms, one per fresh process; `readyMs`: spawn to ready line. */
  fresh: { mp3First: Timed[]; mp3Second: Timed[]; pcmFirst: Timed[]; readyMs: number[]; breakdown: FirstMp3Breakdown[] };
}

type Probe = 'health' | 'model';
const PROBES: Record<Probe, BenchRequest> = { health: { method: 'GET', path: '/__mock/health', headers: {} }, model: MODEL_LOOKUP };

export const REAL_TIME_CHARS = 150;
export const LONG_CHARS = 4000;

let nextInput = 1_000_000;
/** A text no other request of this bench sent (numbers from a million up, away from cases.ts's tags). */
const fresh = (chars: number) => words(nextInput++, chars);

const audioMsOf = (input: string) => planSpeech({ input, voice: 'alloy', speed: 1, seed: 1 }).sampleCount / 24;

/** Sends `c` to `origin` (a fresh connection unless `agent`), reads the body to its end, and times it. */
export function timed(origin: string, c: BenchRequest, agent: Agent | false = false): Promise<Omit<Timed, 'audioMs' | 'serverCpuMs'>> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(new URL(c.path, origin), { method: c.method, headers: c.headers, agent }, (res) => {
      const headersMs = performance.now() - started;
      let firstByteMs = NaN;
      let bytes = 0;
      res.on('data', (part: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += part.byteLength;
      });
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, headersMs, firstByteMs: bytes === 0 ? headersMs : firstByteMs, totalMs: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

/** A cold speech request of `input`, timed and checked (200, and for MP3 the exact length the plan gives). */
async function speech(target: Target, format: Format, input: string, what: string): Promise<Timed> {
  const cpuBefore = cpuTimeMs(target.child.pid);
  const t = await timed(target.origin, speechOf(format, input));
  const cpuAfter = cpuTimeMs(target.child.pid);
  const audioMs = audioMsOf(input);
  const samples = Math.round(audioMs * 24);
  const expected = format === 'mp3' ? mp3ByteLength(samples) : samples * 2;
  if (t.status !== 200) throw new Error(`${what}: answered ${t.status}`);
  // The lamejs baseline's length differs a little (LAME 3.98 pads differently); mockrouter's must be exact.
  if (!what.startsWith('lamejs') && t.bytes !== expected) throw new Error(`${what}: ${t.bytes} bytes, the plan says ${expected}`);
  return { ...t, audioMs, serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Probes back to back (1 ms apart, alternating health and model lookup) until `until()` is true. */
async function probeWhile(origin: string, agent: Agent, until: () => boolean, out: Record<Probe, number[]>, maxProbes = Infinity): Promise<number> {
  let n = 0;
  while (!until() && n < maxProbes) {
    const kind: Probe = n % 2 === 0 ? 'health' : 'model';
    const t = await timed(origin, PROBES[kind], agent);
    if (t.status !== 200) throw new Error(`probe ${kind} answered ${t.status}`);
    out[kind].push(t.totalMs);
    n++;
    await sleep(1);
  }
  return n;
}

export interface SpeechOptions {
  /** Measured cold MP3 requests per server (goal 1). */
  requests: number;
  /** Distinct 4,000-character inputs (goals 2 and 3). */
  longRenders: number;
  /** Fresh processes per format (goal 4). */
  starts: number;
  progress: (message: string) => void;
}

export async function measureSpeech(o: SpeechOptions): Promise<SpeechResult> {
  const [mock, lamejs] = await Promise.all([startMock(), startLamejs()]);
  let result: Omit<SpeechResult, 'fresh'>;
  try {
    o.progress(`speech: cold MP3 real time, ${o.requests} distinct ${REAL_TIME_CHARS}-character inputs per server (mockrouter pid ${mock.child.pid}, lamejs pid ${lamejs.child.pid})…`);
    const firstMock = await speech(mock, 'mp3', fresh(REAL_TIME_CHARS), 'mockrouter first MP3');
    const firstLamejs = await speech(lamejs, 'mp3', fresh(REAL_TIME_CHARS), 'lamejs first MP3');
    const rt = { firstMock, firstLamejs, mock: [] as Timed[], lamejs: [] as Timed[], pcm: [] as Timed[] };
    for (let i = 0; i < o.requests; i++) {
      const input = fresh(REAL_TIME_CHARS);
      const order = i % 2 === 0 ? (['mock', 'lamejs'] as const) : (['lamejs', 'mock'] as const);
      for (const side of order) rt[side].push(await speech(side === 'mock' ? mock : lamejs, 'mp3', input, `${side} cold MP3`));
      rt.pcm.push(await speech(mock, 'pcm', input, 'mockrouter cold PCM'));
    }

    o.progress(`speech: ${o.longRenders} cold ${LONG_CHARS}-character inputs (MP3, PCM, lamejs)…`);
    const long = { chars: LONG_CHARS, mp3: [] as Timed[], pcm: [] as Timed[], lamejs: [] as Timed[] };
    for (let i = 0; i < o.longRenders; i++) {
      const input = fresh(LONG_CHARS);
      long.mp3.push(await speech(mock, 'mp3', input, 'mockrouter long MP3'));
      long.pcm.push(await speech(mock, 'pcm', input, 'mockrouter long PCM'));
      long.lamejs.push(await speech(lamejs, 'mp3', input, 'lamejs long MP3'));
    }

    o.progress(`speech: health and model lookups during ${o.longRenders} ${LONG_CHARS}-character MP3 renders, then idle…`);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const probes = { renders: o.longRenders, renderMs: [] as number[], during: { health: [], model: [] } as Record<Probe, number[]>, idle: { health: [], model: [] } as Record<Probe, number[]> };
    await probeWhile(mock.origin, agent, () => false, { health: [], model: [] }, 10); // opens the connection, warms up
    let sent = 0;
    for (let i = 0; i < o.longRenders; i++) {
      let done = false;
      const render = speech(mock, 'mp3', fresh(LONG_CHARS), 'mockrouter MP3 under probes').finally(() => (done = true));
      sent += await probeWhile(mock.origin, agent, () => done, probes.during);
      probes.renderMs.push((await render).totalMs);
    }
    await probeWhile(mock.origin, agent, () => false, probes.idle, sent);
    agent.destroy();
    result = { realTime: rt, long, probes };
  } finally {
    await Promise.all([stopChild(mock.child), stopChild(lamejs.child)]);
  }

  o.progress(`speech: first MP3 and first PCM of ${o.starts} fresh processes each…`);
  const f: SpeechResult['fresh'] = { mp3First: [], mp3Second: [], pcmFirst: [], readyMs: [], breakdown: [] };
  for (let i = 0; i < o.starts * 2; i++) {
    const format: Format = i % 2 === 0 ? 'mp3' : 'pcm';
    const started = performance.now();
    const target = await startMock();
    f.readyMs.push(performance.now() - started);
    try {
      const first = await speech(target, format, sentence(nextInput++), `fresh process, first ${format}`);
      if (format === 'pcm') f.pcmFirst.push(first);
      else {
        f.mp3First.push(first);
        f.mp3Second.push(await speech(target, 'mp3', sentence(nextInput++), 'fresh process, second MP3'));
      }
    } finally {
      await stopChild(target.child);
    }
  }
  for (let i = 0; i < o.starts; i++) {
    const out = await runScript('./first-mp3.ts', []);
    f.breakdown.push(JSON.parse(out.trim().split('\n').pop()!) as FirstMp3Breakdown);
  }
  return { ...result, fresh: f };
}
