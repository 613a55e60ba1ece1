/**
 * Speech with words under load (section 12): two `--speech words` servers side by side, one saying words on its
 * threads (`--words-threads`, default: the cores) and one on the thread that answers requests (`--words-threads 0`,
 * the baseline), each measured while the other idles, alternating which goes first:
 *
 * 1. model lookups (`GET /api/v1/model/openai/gpt-4o-mini`, one keep-alive connection, back to back 1 ms apart)
 *    idle, then while 1, 4 and 16 distinct 120-word paragraphs ({@link paragraph}) are said at once as MP3, each on
 *    its own connection: the lookups' latencies, and the words' throughput (audio seconds of all the answers over
 *    the wall time from the first request to the last byte);
 * 2. throughput alone, without the lookups (which keep part of a core busy on a small machine, so that they weigh on
 *    4 at once, which wants every core, and not on 1 at a time, which leaves one idle): 4 distinct paragraphs one
 *    after another, then 4 at once, {@link THROUGHPUT_ROUNDS} rounds alternating which goes first, on each server;
 * 3. the worst inputs found, one at a time on the threaded server: each request's server CPU time (all threads,
 *    from /proc), its audio, and what the journal says Flite said (`audio.words`).
 *
 * Audio length of an MP3 of words: its tag frame's sample count (`frames − 3` frames of 24 ms, within one frame).
 * Report: words-load-report.ts.
 *
 * @module
 */
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { MODEL_LOOKUP, SPEECH_MODEL } from './cases.js';
import { timed } from './speech.js';
import { paragraph } from './words.js';
import { cpuTimeMs, startMock, stopChild, type BenchRequest, type Target } from './targets.js';

const AUTH = { Authorization: 'Bearer sk-bench', 'Content-Type': 'application/json' } as const;

/** A speech request of `input` in words. */
function wordsOf(input: string, format: 'mp3' | 'pcm', speed = 1, model = SPEECH_MODEL, voice = 'alloy'): BenchRequest {
  return { method: 'POST', path: '/api/v1/audio/speech', headers: { ...AUTH, 'X-Mock-Speech': 'words' }, body: JSON.stringify({ model, input, voice, speed, response_format: format }) };
}

/** Audio of an answer, ms: PCM 48 bytes a ms; MP3 of words (tag frame first) (frames − 3) × 24 ms. */
const audioMsOf = (format: 'mp3' | 'pcm', bytes: number) => (format === 'pcm' ? bytes / 48 : (bytes / 192 - 3) * 24);

export interface LoadStep {
  /** Paragraphs said at once (0: idle). */
  concurrency: number;
  lookupMs: number[];
  /** Audio of all the answers, ms, and the wall time from the first request to the last byte. */
  audioMs: number;
  wallMs: number;
  /** The server's CPU time over the step (all threads), ms; `null` without /proc. */
  cpuMs: number | null;
}

/** One round of the throughput alone: the same 4 paragraphs' worth of audio said one at a time and 4 at once. */
export interface ThroughputRound {
  /** Audio ms and wall ms of 4 paragraphs one after another (each waiting for the last byte of the one before). */
  oneAtATime: { audioMs: number; wallMs: number };
  /** Audio ms and wall ms of 4 paragraphs sent at once, to the last byte of the last. */
  fourAtOnce: { audioMs: number; wallMs: number };
}

export interface WorstInput {
  name: string;
  chars: number;
  speed: number;
  format: 'mp3' | 'pcm';
  cpuMs: number | null;
  wallMs: number;
  audioMs: number;
  /** The journal's `audio.words` of the answer. */
  words: { said_ms: number; said_chars: number; limited: { at_ms: number; chars: number } | null } | null;
}

export interface WordsLoadResult {
  load: [number, number];
  /** The threads of the threaded server (`--words-threads`), and the cores. */
  threads: number;
  cores: number;
  steps: { pool: LoadStep[]; none: LoadStep[] };
  /** Throughput alone (no lookups), round by round. */
  throughput: { pool: ThroughputRound[]; none: ThroughputRound[] };
  worst: WorstInput[];
}

export interface WordsLoadOptions {
  /** Paragraphs said at once, besides idle. */
  concurrencies: number[];
  /** Lookups measured idle. */
  idleLookups: number;
  threads: number;
  cores: number;
  progress: (message: string) => void;
}

let nextParagraph = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lookups back to back until `until()` (at least one), then their latencies. */
async function lookups(target: Target, agent: Agent, until: () => boolean, atMost = Infinity): Promise<number[]> {
  const out: number[] = [];
  do {
    const t = await timed(target.origin, MODEL_LOOKUP, agent);
    if (t.status !== 200) throw new Error(`model lookup answered ${t.status}`);
    out.push(t.totalMs);
    await sleep(1);
  } while (!until() && out.length < atMost);
  return out;
}

/** `concurrency` paragraphs said at once on `target` (0: idle), lookups probing meanwhile. */
async function step(target: Target, concurrency: number, idleLookups: number): Promise<LoadStep> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    if (concurrency === 0) return { concurrency, lookupMs: await lookups(target, agent, () => false, idleLookups), audioMs: 0, wallMs: 0, cpuMs: null };
    const cpuBefore = cpuTimeMs(target.child.pid);
    const started = performance.now();
    let left = concurrency;
    const said = Array.from({ length: concurrency }, async () => {
      const t = await timed(target.origin, wordsOf(paragraph(nextParagraph++), 'mp3'));
      left--;
      if (t.status !== 200) throw new Error(`words paragraph answered ${t.status}`);
      return audioMsOf('mp3', t.bytes);
    });
    const [lookupMs, audio] = await Promise.all([lookups(target, agent, () => left === 0), Promise.all(said)]);
    const wallMs = performance.now() - started;
    const cpuAfter = cpuTimeMs(target.child.pid);
    return { concurrency, lookupMs, audioMs: audio.reduce((a, b) => a + b, 0), wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
  } finally {
    agent.destroy();
  }
}

/** Rounds of the throughput alone on each server. */
export const THROUGHPUT_ROUNDS = 3;

/** `count` distinct paragraphs said on `target`, all at once or one after another: their audio and the wall time, ms. */
async function paragraphs(target: Target, count: number, atOnce: boolean): Promise<{ audioMs: number; wallMs: number }> {
  const started = performance.now();
  const sayOne = async () => {
    const t = await timed(target.origin, wordsOf(paragraph(nextParagraph++), 'mp3'));
    if (t.status !== 200) throw new Error(`words paragraph answered ${t.status}`);
    return audioMsOf('mp3', t.bytes);
  };
  let audioMs = 0;
  if (atOnce) audioMs = (await Promise.all(Array.from({ length: count }, sayOne))).reduce((a, b) => a + b, 0);
  else for (let i = 0; i < count; i++) audioMs += await sayOne();
  return { audioMs, wallMs: performance.now() - started };
}

/** One round of the throughput alone on `target`; `fourFirst` says which of the two goes first. */
async function throughputRound(target: Target, fourFirst: boolean): Promise<ThroughputRound> {
  if (fourFirst) {
    const fourAtOnce = await paragraphs(target, 4, true);
    return { fourAtOnce, oneAtATime: await paragraphs(target, 4, false) };
  }
  const oneAtATime = await paragraphs(target, 4, false);
  return { oneAtATime, fourAtOnce: await paragraphs(target, 4, true) };
}

/** The worst inputs found: long runs Flite spells or reads digit by digit, every script, punctuation alone, the slowest and fastest speeds. */
const WORST: { name: string; input: string; speed: number; model?: string; voice?: string }[] = [
  { name: '4,096 digits', input: '1234567890'.repeat(410).slice(0, 4096), speed: 0.25 },
  { name: '4,096 digits', input: '1234567890'.repeat(410).slice(0, 4096), speed: 1 },
  { name: '4,096 digits', input: '1234567890'.repeat(410).slice(0, 4096), speed: 4 },
  { name: "one 4,096-letter word ('x')", input: 'x'.repeat(4096), speed: 0.25 },
  { name: "one 4,096-letter word ('x')", input: 'x'.repeat(4096), speed: 1 },
  { name: '2,048 × "! " (one piece each)', input: '! '.repeat(2048), speed: 0.25 },
  { name: 'English prose, 4,096 characters', input: paragraph(1).repeat(6).slice(0, 4096), speed: 4 },
  { name: 'every script, 4,096 characters', input: 'Hello мир 你好 مرحبا שלום नमस्ते 😀 γειά こんにちは 안녕 ok 42. '.repeat(80).slice(0, 4096), speed: 0.25 },
  { name: 'English prose, 15,000 characters (grok)', input: paragraph(2).repeat(21).slice(0, 15_000), speed: 1, model: 'x-ai/grok-voice-tts-1.0', voice: 'eve' },
];

/** One worst input on `target`, MP3, with the journal's facts of its answer. */
async function worstOne(target: Target, w: (typeof WORST)[number]): Promise<WorstInput> {
  const cpuBefore = cpuTimeMs(target.child.pid);
  const t = await timed(target.origin, wordsOf(w.input, 'mp3', w.speed, w.model, w.voice));
  const cpuAfter = cpuTimeMs(target.child.pid);
  if (t.status !== 200) throw new Error(`worst input ${w.name}: answered ${t.status}`);
  await sleep(50); // the entry is complete once the body ended on the server's side too
  const journal = (await (await fetch(`${target.origin}/__mock/requests?operation=speech&limit=1`)).json()) as { requests: { audio: { words?: WorstInput['words'] } | null }[] };
  const words = journal.requests.at(-1)?.audio?.words ?? null;
  return { name: w.name, chars: [...w.input].length, speed: w.speed, format: 'mp3', cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, wallMs: t.totalMs, audioMs: audioMsOf('mp3', t.bytes), words };
}

export async function measureWordsLoad(o: WordsLoadOptions): Promise<WordsLoadResult> {
  const loadAtStart = loadavg()[0]!;
  const [pool, none] = await Promise.all([
    startMock([], ['--speech', 'words', '--words-threads', String(o.threads)]),
    startMock([], ['--speech', 'words', '--words-threads', '0']),
  ]);
  const steps: WordsLoadResult['steps'] = { pool: [], none: [] };
  const throughput: WordsLoadResult['throughput'] = { pool: [], none: [] };
  const worst: WorstInput[] = [];
  try {
    await sleep(2000); // both start-up warmUps compile Flite
    for (const target of [pool, none]) await timed(target.origin, wordsOf(paragraph(nextParagraph++), 'mp3')); // threads started, JIT warm
    for (const [i, concurrency] of [0, ...o.concurrencies].entries()) {
      const order = i % 2 === 0 ? (['pool', 'none'] as const) : (['none', 'pool'] as const);
      for (const side of order) {
        o.progress(`words under load: ${concurrency === 0 ? 'idle' : `${concurrency} paragraph(s) at once`}, ${side === 'pool' ? `${o.threads} thread(s)` : 'no threads'}…`);
        steps[side].push(await step(side === 'pool' ? pool : none, concurrency, o.idleLookups));
      }
    }
    for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['pool', 'none'] as const) : (['none', 'pool'] as const)) {
        o.progress(`words throughput alone: round ${round + 1} of ${THROUGHPUT_ROUNDS}, ${side === 'pool' ? `${o.threads} thread(s)` : 'no threads'}…`);
        throughput[side].push(await throughputRound(side === 'pool' ? pool : none, round % 2 === 1));
      }
    }
    for (const w of WORST) {
      o.progress(`words under load: worst input ${w.name}, speed ${w.speed}…`);
      worst.push(await worstOne(pool, w));
    }
  } finally {
    await Promise.all([stopChild(pool.child), stopChild(none.child)]);
  }
  return { load: [loadAtStart, loadavg()[0]!], threads: o.threads, cores: o.cores, steps, throughput, worst };
}
