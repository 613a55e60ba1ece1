/**
 * `npm run bench`: builds, then measures in one run (the goals are listed in bench/README.md, "6. Goals"):
 *
 * 1. HTTP throughput with autocannon (this process) against child processes on 127.0.0.1: the standalone
 *    mockrouter (`bin/mockrouter.js --port 0 --quiet`), a bare `node:http` server replaying the mock's exact
 *    responses (the ceiling) and, for the model lookup, `@copilotkit/aimock` on its own model-list route. Cases:
 *    model and generation lookup, speech PCM and MP3 of one sentence and one paragraph, cached and cold, and a
 *    mix at 50 and 200 connections;
 * 2. cold speech: end to end (from the cold HTTP cases) and no HTTP, in a fresh process per format (synth.ts);
 * 3. in-process cost: msw `setupServer` with mockrouter's handlers vs a trivial msw handler (inprocess.ts);
 * 4. CLI start: spawn to the ready line;
 * 5. resident memory of the CLI server after 100,000 mixed requests;
 * 7. speech over HTTP: cold MP3 against a lamejs baseline, a long MP3's first byte, health and model
 *    lookups during a long render, the first MP3 of a fresh process (speech.ts, speech-report.ts);
 * 8. a shared store: model lookup and cached speech in memory against `--store`, and cold MP3 with
 *    `--store --workers 2` against `--workers 1`, on a throwaway redis-server (store.ts, store-report.ts);
 * 9. a saved real catalog: `--fixtures` with a 500-model `models.json`, a lookup and list reads against
 *    the bare server's replay (saved-catalog.ts, saved-catalog-report.ts);
 * 10. speech with words (CMU Flite in WebAssembly, `--speech words`): a 120-word paragraph as MP3, warm and cold
 *    (the first request of a fresh process), its first byte's share of the answer's time, RSS after 1,000 word
 *    renders, and tones on a `--speech words` server against a default one (words.ts, words-report.ts);
 * 12. speech with words under load: model lookups while 1, 4 and 16 paragraphs are said, and the words' throughput,
 *    with words on worker threads against on the answering thread; the worst inputs' CPU per request
 *    (words-load.ts, words-load-report.ts);
 *
 * and prints the tables and the goals. Progress goes to stderr, the report to stdout. Settings: see
 * bench/README.md (`BENCH_*` environment variables).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { MIX_429_SHARE, MEMORY_MIX, httpCases, speechRequest, distinct, type HttpCase, type Length, type ServerName } from './cases.js';
import type { InProcessResult } from './inprocess.js';
import { measureMemory, measureStart, type MemoryResult, type StartResult } from './lifecycle.js';
import { assertSameResponse, capture, compare, type Measured, type Side } from './load.js';
import { bytes, heading, int, mem, median, mibPerSec, ms, percent, ratio, table, times, verdict } from './report.js';
import { measureSpeech, type SpeechResult } from './speech.js';
import { speechGoals, speechSection } from './speech-report.js';
import { measureCatalog, type CatalogResult } from './saved-catalog.js';
import { catalogGoals, catalogSection } from './saved-catalog-report.js';
import { measureWords, type WordsResult } from './words.js';
import { wordsGoals, wordsSection } from './words-report.js';
import { measureWordsLoad, type WordsLoadResult } from './words-load.js';
import { wordsLoadGoals, wordsLoadSection } from './words-load-report.js';
import { transcriptionGoals, transcriptionSection } from './transcription-report.js';
import { measureTranscription, type TranscriptionResult } from './transcription.js';
import type { StoreResult } from './store.js';
import { storeGoals, storeSection } from './store-report.js';
import type { SynthResult } from './synth.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_MAX_ENTRIES } from '../src/core/audio/cache.js';
import { runScript, startAimock, startBare, startMock, stopAll, stopChild, type Recorded, type Target } from './targets.js';

/** The performance goals (bench/README.md, "6. Goals"). */
const GOALS = {
  modelLookupOverAimock: 2,
  modelLookupShareOfBare: 0.6,
  cachedSpeechShareOfBare: 0.5,
  coldMp3TimesRealTime: 200,
  inProcessOverTrivial: 2,
  cliReadyMs: 150,
  /** `import('mockrouter')` more than `node -e 0`, medians, ms. */
  importOverNodeMs: 100,
  rssBytes: 150e6,
} as const;

const SECTIONS = ['http', 'synth', 'inprocess', 'start', 'memory', 'speech', 'store', 'catalog', 'words', 'transcription', 'words-load'] as const;
type Section = (typeof SECTIONS)[number];

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return n;
}

function envList<T extends string>(name: string, allowed: readonly T[] | null, fallback: T[]): T[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const item of items) if (allowed && !allowed.includes(item as T)) throw new Error(`${name}: unknown "${item}"; use ${allowed.join(', ')}`);
  return items as T[];
}

function readConfig() {
  const mixConnections = envList<string>('BENCH_MIX_CONNECTIONS', null, ['50', '200']).map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_MIX_CONNECTIONS: "${s}" is not a positive integer`);
    return n;
  });
  return {
    duration: envNumber('BENCH_DURATION', 5, 0.5),
    warmup: envNumber('BENCH_WARMUP', 1, 0),
    connections: Math.round(envNumber('BENCH_CONNECTIONS', 50, 1)),
    coldConnections: Math.round(envNumber('BENCH_COLD_CONNECTIONS', 1, 1)),
    mixConnections,
    rounds: Math.round(envNumber('BENCH_ROUNDS', 2, 1)),
    renders: Math.round(envNumber('BENCH_RENDERS', 20, 1)),
    inProcessRequests: Math.round(envNumber('BENCH_INPROCESS_REQUESTS', 5000, 10)),
    inProcessWarmup: Math.round(envNumber('BENCH_INPROCESS_WARMUP', 1000, 0)),
    starts: Math.round(envNumber('BENCH_STARTS', 10, 1)),
    memoryRequests: Math.round(envNumber('BENCH_MEMORY_REQUESTS', 100_000, 1000)),
    speechRequests: Math.round(envNumber('BENCH_SPEECH_REQUESTS', 20, 1)),
    longRenders: Math.round(envNumber('BENCH_LONG_RENDERS', 3, 1)),
    freshStarts: Math.round(envNumber('BENCH_FRESH_STARTS', 5, 1)),
    workerConnections: Math.round(envNumber('BENCH_WORKER_CONNECTIONS', 8, 1)),
    workerDuration: envNumber('BENCH_WORKER_DURATION', 20, 1),
    wordsParagraphs: Math.round(envNumber('BENCH_WORDS_PARAGRAPHS', 5, 1)),
    wordsStarts: Math.round(envNumber('BENCH_WORDS_STARTS', 3, 1)),
    wordsRenders: Math.round(envNumber('BENCH_WORDS_RENDERS', 1000, 1)),
    wordsTones: Math.round(envNumber('BENCH_WORDS_TONES', 8, 1)),
    wordsLoad: envList<string>('BENCH_WORDS_LOAD', null, ['1', '4', '16']).map((n) => Math.round(Number(n))).filter((n) => n >= 1),
    wordsThreads: Math.round(envNumber('BENCH_WORDS_THREADS', availableParallelism(), 1)),
    transcriptionRuns: Math.round(envNumber('BENCH_TRANSCRIPTION_RUNS', 30, 1)),
    transcriptionDistinct: Math.round(envNumber('BENCH_TRANSCRIPTION_DISTINCT', 1000, 0)),
    sections: new Set<Section>(envList('BENCH_ONLY', SECTIONS, [...SECTIONS])),
    /** Directory for a `--cpu-prof` profile of the HTTP section's mockrouter (written when it stops). */
    profileDir: process.env.BENCH_PROFILE?.trim() || null,
  };
}

const config = (() => {
  try {
    return readConfig();
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(2);
  }
})();

const benchStarted = performance.now();
const progress = (message: string) => process.stderr.write(`bench [${((performance.now() - benchStarted) / 1000).toFixed(0)} s]: ${message}\n`);

// ---------------------------------------------------------------------------------------------------------
// 1. HTTP

interface ServerRow {
  server: ServerName;
  bodyBytes: number | null;
  m: Measured;
}

interface HttpRow {
  c: HttpCase;
  servers: ServerRow[];
}

interface HttpResult {
  rows: HttpRow[];
  /** Audio length of the sentence and the paragraph, ms (from the PCM byte count: 48,000 bytes a second). */
  audioMs: Record<Length, number>;
}


/** Records the mock's answers for `c`, has the bare server replay them, and checks the replay byte for byte. */
async function prepareBare(mock: Target, bare: Awaited<ReturnType<typeof startBare>>, c: HttpCase): Promise<number> {
  const request = c.record.response();
  const recorded = await capture(mock.origin, request);
  if (recorded.status !== 200) throw new Error(`${c.name}: mockrouter answered ${recorded.status}: ${recorded.body.toString().slice(0, 300)}`);
  const routes: Record<string, Recorded> = {};
  for (const [key, r] of Object.entries(c.record.routes ?? {})) routes[key] = await capture(mock.origin, r);
  await bare.serve(recorded, c.record.routes ? routes : undefined);
  assertSameResponse(`${c.name}: bare server's replay`, recorded, await capture(bare.origin, request));
  for (const [key, r] of Object.entries(c.record.routes ?? {})) {
    assertSameResponse(`${c.name}: bare server's replay of ${key}`, routes[key]!, await capture(bare.origin, { ...r, headers: { ...r.headers, 'X-Bench-Case': key } }));
  }
  return recorded.body.byteLength;
}

async function httpBench(): Promise<HttpResult> {
  const execArgv = config.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${config.profileDir}`] : [];
  const [mock, bare, aimock] = await Promise.all([startMock(execArgv), startBare(), startAimock()]);
  progress(`mockrouter on ${mock.origin} (pid ${mock.child.pid}), bare node:http on ${bare.origin} (pid ${bare.child.pid}), aimock on ${aimock.origin} (pid ${aimock.child.pid})`);
  const targets: Record<ServerName, Target> = { mockrouter: mock, bare, aimock };

  const audioMs = {} as Record<Length, number>;
  for (const length of ['sentence', 'paragraph'] as const) {
    const pcm = await capture(mock.origin, speechRequest('pcm', length, distinct()));
    if (pcm.status !== 200) throw new Error(`speech pcm ${length}: mockrouter answered ${pcm.status}`);
    audioMs[length] = pcm.body.byteLength / 48;
  }

  const rows: HttpRow[] = [];
  for (const c of httpCases(config)) {
    const bodyBytes = await prepareBare(mock, bare, c);
    let aimockBytes: number | null = null;
    if (c.aimockRequest) {
      const r = await capture(aimock.origin, c.aimockRequest);
      if (r.status !== 200) throw new Error(`${c.name}: aimock answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
      aimockBytes = r.body.byteLength;
    }
    progress(`${c.name}, ${c.connections} connection(s)…`);
    const names = (Object.keys(c.loads) as ServerName[]).filter((n) => c.loads[n]);
    const sides: Side[] = names.map((n) => ({ target: targets[n], load: c.loads[n]! }));
    const measured = await compare(sides, { ...config, connections: c.connections, timeout: c.timeout, byAmount: c.kind === 'cold' });
    rows.push({
      c,
      servers: names.map((server, i) => ({
        server,
        bodyBytes: c.kind === 'mix' ? null : server === 'aimock' ? aimockBytes : bodyBytes,
        m: measured[i]!,
      })),
    });
  }
  await Promise.all([stopChild(mock.child), stopChild(bare.child), stopChild(aimock.child)]);
  if (config.profileDir) progress(`CPU profile of the mock written to ${config.profileDir}`);
  return { rows, audioMs };
}

// ---------------------------------------------------------------------------------------------------------
// 2-5. Synthesis, in-process, start, memory

async function synthBench(format: 'mp3' | 'pcm'): Promise<SynthResult> {
  progress(`cold ${format} synthesis (fresh process)…`);
  const out = await runScript('./synth.ts', [format, String(config.renders)]);
  const result = JSON.parse(out.trim().split('\n').pop()!) as SynthResult;
  if (result.cacheHits !== 0) throw new Error(`synthesis ${format}: ${result.cacheHits} cache hits; the renders must all be distinct`);
  return result;
}

/** The in-process result, or why it could not be measured (msw 3 needs Node 22, for one). */
async function inProcessBench(): Promise<InProcessResult | string> {
  progress(`in-process msw handlers, ${config.inProcessRequests} requests per variant (fresh process)…`);
  try {
    const out = await runScript('./inprocess.ts', [String(config.inProcessRequests), String(config.inProcessWarmup), String(Math.max(2, config.rounds * 2))]);
    return JSON.parse(out.trim().split('\n').pop()!) as InProcessResult;
  } catch (error) {
    const message = (error as Error).message;
    progress(`in-process bench failed: ${message}`);
    const cause = message.split('\n').find((line) => /Error/.test(line)) ?? message.split('\n')[0]!;
    return `${cause.trim()} (msw ${mswVersion()}, Node ${process.version})`;
  }
}

function mswVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../node_modules/msw/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Report

const realTime = (r: { audioMs: number; wallMs: number }) => r.audioMs / r.wallMs;
const r = { align: 'right' } as const;

interface Results {
  http: HttpResult | null;
  synth: SynthResult[];
  /** The result, or why it could not be measured. */
  inProcess: InProcessResult | string | null;
  start: StartResult | null;
  memory: MemoryResult | null;
  speech: SpeechResult | null;
  /** The result, or why the section was skipped (no redis-server). */
  store: StoreResult | string | null;
  catalog: CatalogResult | null;
  words: WordsResult | null;
  transcription: TranscriptionResult | null;
  wordsLoad?: WordsLoadResult | null;
}

/** `goal / measured` for "at least" goals, `measured / goal` for "at most" goals; shown only on a miss. */
function shortfall(pass: boolean, factor: number): string {
  return pass || !Number.isFinite(factor) ? '' : `${ratio(factor)} short`;
}

function httpSection(http: HttpResult, out: string[]): void {
  out.push(
    heading('1. HTTP throughput (autocannon)'),
    `Per case and server ${config.warmup} s of warm-up, then ${config.duration} s measured in ${config.rounds} slice(s), the order of the servers`,
    'reversed every slice. Each server is its own process on 127.0.0.1; "bare" is node:http replaying the',
    "mock's exact response (status, headers, body, framing): the ceiling; aimock answers on its own model-list",
    'route (one model listed). Cached speech repeats one body; cold speech makes every input distinct (the mock',
    'synthesises each; bare replays one representative response). req/s = requests / measured seconds; latency',
    'percentiles over every response. "server CPU" is the server process\'s CPU time per wall second (100% = one',
    'core): well under 100% means the load generator (autocannon, this process, also shown), not the server, was',
    'the limit; "CPU µs/req" (server CPU time per request) then compares the servers more fairly. "mock ÷ this":',
    "mockrouter's req/s over this server's (and this server's CPU/req over mockrouter's).",
    '',
  );
  const rows: string[][] = [];
  for (const { c, servers } of http.rows) {
    const mock = servers.find((s) => s.server === 'mockrouter')!.m;
    servers.forEach(({ server, bodyBytes, m }, i) => {
      const fmt = server === 'aimock' ? ratio : percent;
      const cpuRatio = m.serverCpuUsPerReq !== null && mock.serverCpuUsPerReq !== null ? fmt(m.serverCpuUsPerReq / mock.serverCpuUsPerReq) : 'n/a';
      rows.push([
        i === 0 ? c.name : '',
        i === 0 ? String(c.connections) : '',
        server,
        bodyBytes === null ? 'mixed' : bytes(bodyBytes),
        int(m.rps),
        ms(m.p50),
        ms(m.p99),
        mibPerSec(m.bytesPerSec),
        m.serverCpu === null ? 'n/a' : percent(m.serverCpu),
        m.serverCpuUsPerReq === null ? 'n/a' : m.serverCpuUsPerReq.toFixed(1),
        percent(m.clientCpu),
        i === 0 ? '' : fmt(mock.rps / m.rps),
        i === 0 ? '' : cpuRatio,
      ]);
    });
  }
  out.push(
    table(
      [{ title: 'case' }, { title: 'conns', ...r }, { title: 'server' }, { title: 'body', ...r }, { title: 'req/s', ...r }, { title: 'p50 ms', ...r },
        { title: 'p99 ms', ...r }, { title: 'MiB/s', ...r }, { title: 'server CPU', ...r }, { title: 'CPU µs/req', ...r }, { title: 'autocannon CPU', ...r },
        { title: 'mock ÷ this req/s', ...r }, { title: '… CPU/req', ...r }],
      rows,
    ),
  );

  const bad: string[] = [];
  for (const { c, servers } of http.rows) {
    for (const { server, m } of servers) {
      const expected429 = c.kind === 'mix' ? (m.statuses.get(429) ?? 0) : 0;
      const unexpected = m.non2xx - expected429;
      if (unexpected + m.errors + m.timeouts > 0) {
        const codes = [...m.statuses].filter(([s]) => s < 200 || s >= 300).map(([s, n]) => `${n}× ${s}`).join(', ');
        bad.push(`  ${c.name}, ${c.connections} conns (${server}): ${unexpected} unexpected non-2xx (${codes || 'none'}), ${m.errors} errors, ${m.timeouts} timeouts`);
      }
    }
  }
  const mixes = http.rows.filter((row) => row.c.kind === 'mix');
  if (mixes.length > 0) {
    const shares = mixes.flatMap(({ c, servers }) => servers.map(({ server, m }) => `${server} @${c.connections}: ${percent((m.statuses.get(429) ?? 0) / m.total)}`));
    out.push(
      '',
      `Mix: per 20 requests, 8 model lookups, 6 generation lookups, 2 cached PCM and 3 cached MP3 sentences, and 1 speech call`,
      `with "X-Mock-Status: 429" (${percent(MIX_429_SHARE)} of requests, answered 429 on purpose and not counted as failures). 429 share seen: ${shares.join(', ')}.`,
    );
    for (const { c, servers } of mixes) {
      for (const { server, m } of servers) {
        const seen = (m.statuses.get(429) ?? 0) / m.total;
        if (Math.abs(seen - MIX_429_SHARE) > 0.01) bad.push(`  ${c.name}, ${c.connections} conns (${server}): ${percent(seen)} answered 429, expected ${percent(MIX_429_SHARE)}`);
      }
    }
  }
  out.push(bad.length > 0 ? `\nWARNING: failed requests\n${bad.join('\n')}` : '\nEvery request answered 2xx (or the intended 429), no errors or timeouts.');
}

function coldSection(http: HttpResult | null, synth: SynthResult[], out: string[]): void {
  out.push('', heading('2. Cold speech synthesis'));
  if (http) {
    out.push(
      '',
      'End to end, from the cold HTTP cases above (mockrouter, distinct inputs, never cached; measured by request count,',
      'sized from the warm-up to last about a slice, so no request is cut off): "× real time" = audio length / p50',
      'latency (request sent to last byte received), and audio length / server CPU time per request.',
      '',
    );
    const rows = http.rows
      .filter((row) => row.c.kind === 'cold')
      .map(({ c, servers }) => {
        const m = servers.find((s) => s.server === 'mockrouter')!.m;
        const audio = http.audioMs[c.length!];
        return [c.format!, c.length!, (audio / 1000).toFixed(1), String(c.connections), int(m.total), ms(m.p50), ms(m.p99), times(audio / m.p50),
          m.serverCpuUsPerReq === null ? 'n/a' : ms(m.serverCpuUsPerReq / 1000), m.serverCpuUsPerReq === null ? 'n/a' : times(audio / (m.serverCpuUsPerReq / 1000))];
      });
    out.push(table([{ title: 'format' }, { title: 'input' }, { title: 'audio s', ...r }, { title: 'conns', ...r }, { title: 'requests', ...r }, { title: 'p50 ms', ...r }, { title: 'p99 ms', ...r },
      { title: '× real time (p50)', ...r }, { title: 'CPU ms/req', ...r }, { title: '× real time (CPU)', ...r }], rows));
  }
  if (synth.length > 0) {
    out.push(
      '',
      'No HTTP: createAudioRenderer().render() from dist/, fresh process per format, distinct 10 s sentences (never',
      'cached). Neither the module import nor, for MP3, loading the WebAssembly encoder (loadMp3Encoder) is counted.',
      '',
    );
    const rows: string[][] = [];
    for (const s of synth) {
      const restRt = s.rest.map(realTime);
      rows.push(
        [s.format, 'first render of the process', (s.first.audioMs / 1000).toFixed(1), bytes(s.first.bytes), ms(s.first.wallMs), times(realTime(s.first))],
        [s.format, `median of the next ${s.rest.length}`, (median(s.rest.map((x) => x.audioMs)) / 1000).toFixed(1), bytes(median(s.rest.map((x) => x.bytes))),
          ms(median(s.rest.map((x) => x.wallMs))), times(median(restRt))],
        [s.format, `  (min … max of those)`, '', '', `${ms(Math.min(...s.rest.map((x) => x.wallMs)))} … ${ms(Math.max(...s.rest.map((x) => x.wallMs)))}`,
          `${times(Math.min(...restRt))} … ${times(Math.max(...restRt))}`],
      );
    }
    out.push(table([{ title: 'format' }, { title: 'render' }, { title: 'audio s', ...r }, { title: 'size', ...r }, { title: 'wall ms', ...r }, { title: '× real time', ...r }], rows));
    out.push(`\nImport of the renderer: ${synth.map((s) => `${s.format} process ${ms(s.importMs)} ms`).join(', ')}; ` +
      `loading the MP3 encoder: ${synth.filter((s) => s.encoderLoadMs !== null).map((s) => `${ms(s.encoderLoadMs!)} ms`).join(', ') || 'n/a'}.`);
  }
}

function inProcessSection(ip: InProcessResult | string, out: string[]): void {
  if (typeof ip === 'string') {
    out.push('', heading('3. In-process cost (msw/node)'), `NOT MEASURED: ${ip}`);
    return;
  }
  const trivial = ip.variants[0]!;
  out.push(
    '',
    heading('3. In-process cost (msw/node)'),
    `msw ${ip.msw}. One setupServer() in a fresh process; sequential fetch() of the model record (${bytes(ip.bodyBytes)}), body read to the end;`,
    `${int(trivial.requests)} measured requests per variant after a warm-up, in alternating slices. Only the handlers change.`,
    'Wall µs/req is what a test waits; CPU µs/req (this process, all threads) is less moved by other load on the',
    'machine (wall well above CPU means the process was waiting for a core), so the goal is judged on it.',
    '',
  );
  out.push(
    table(
      [{ title: 'handlers' }, { title: 'requests', ...r }, { title: 'µs/req', ...r }, { title: 'median slice µs/req', ...r }, { title: 'CPU µs/req', ...r },
        { title: '÷ trivial (µs/req)', ...r }, { title: '÷ trivial (CPU)', ...r }, { title: 'failures', ...r }],
      ip.variants.map((v, i) => [v.name, int(v.requests), v.wallUsPerReq.toFixed(0), v.sliceMedianUs.toFixed(0), v.cpuUsPerReq.toFixed(0),
        i === 0 ? '' : ratio(v.wallUsPerReq / trivial.wallUsPerReq), i === 0 ? '' : ratio(v.cpuUsPerReq / trivial.cpuUsPerReq), String(v.failures)]),
    ),
  );
}

function startSection(start: StartResult, out: string[]): void {
  const t = start.readyMs;
  out.push(
    '',
    heading('4. CLI start and import'),
    `node bin/mockrouter.js --port 0 --host 127.0.0.1 --quiet, ${t.length} times one after the other; spawn() to the ready line on stdout.`,
    '',
    `median ${ms(median(t))} ms, min ${ms(Math.min(...t))} ms, max ${ms(Math.max(...t))} ms, first ${ms(t[0]!)} ms (all: ${t.map((x) => x.toFixed(0)).join(', ')})`,
    `beside it, node -e 0 (spawn to exit), ${start.nodeMs.length} times: median ${ms(median(start.nodeMs))} ms, min ${ms(Math.min(...start.nodeMs))} ms, max ${ms(Math.max(...start.nodeMs))} ms; mockrouter's own share of the median: ${ms(median(t) - median(start.nodeMs))} ms`,
    `beside it, a bare node:http server (createServer, listen on port 0, one ready line; spawn to that line), after each start: median ${ms(median(start.bareListenMs))} ms, min ${ms(Math.min(...start.bareListenMs))} ms, max ${ms(Math.max(...start.bareListenMs))} ms; mockrouter over it: ${ms(median(t) - median(start.bareListenMs))} ms (${ratio(median(t) / median(start.bareListenMs))})`,
    `import('mockrouter') (dist/lib/index.js, bundled; a process that only imports it; spawn to exit), ${start.importMs.length} times: median ${ms(median(start.importMs))} ms, min ${ms(Math.min(...start.importMs))} ms, max ${ms(Math.max(...start.importMs))} ms; more than node -e 0: ${ms(median(start.importMs) - median(start.nodeMs))} ms`,
    `beside it, the unbundled entry (dist/index.js, as tsc wrote it): median ${ms(median(start.unbundledMs))} ms, more than node -e 0: ${ms(median(start.unbundledMs) - median(start.nodeMs))} ms; bundled ÷ unbundled, over node -e 0: ${ratio((median(start.importMs) - median(start.nodeMs)) / (median(start.unbundledMs) - median(start.nodeMs)))}`,
  );
}

function nodeMemoryLine(when: string, n: MemoryResult['nodeAfterLoad']): string {
  if (!n) return `${when} n/a`;
  const mib = (x: number) => `${(x / 1024 / 1024).toFixed(1)} MiB`;
  return `${when} heap ${mib(n.heapUsed)} used of ${mib(n.heapTotal)}, external ${mib(n.external)} (arrayBuffers ${mib(n.arrayBuffers)}), ` +
    `other ${mib(n.rss - n.heapTotal - n.external)}`;
}

function memorySection(m: MemoryResult, out: string[]): void {
  const fmt = (p: { rss: number; peak: number } | null) => (p ? mem(p.rss) : 'n/a (no /proc)');
  out.push(
    '',
    heading('5. Resident memory'),
    `A fresh CLI server (--quiet --seed 1); ${int(m.requests)} requests over ${config.connections} connections, cycling 1,000 of which:`,
    `  ${MEMORY_MIX.map((k) => `${k.per1000} ${k.kind}`).join(', ')}.`,
    `Distinct inputs fill the audio cache past its bounds (${int(DEFAULT_CACHE_MAX_ENTRIES)} entries, ${DEFAULT_CACHE_MAX_BYTES / 2 ** 20} MiB by default), speech calls fill the generation`,
    'store past its bound (10,000 records), the journal wraps (1,000 entries). RSS from /proc/<pid>/status.',
    '',
    table(
      [{ title: 'when' }, { title: 'VmRSS', ...r }, { title: 'VmHWM (peak)', ...r }],
      [
        ['at start (ready + 1 s idle)', fmt(m.atStart), m.atStart ? mem(m.atStart.peak) : ''],
        [`after ${int(m.requests)} requests`, fmt(m.afterLoad), m.afterLoad ? mem(m.afterLoad.peak) : ''],
        ['2 s later, idle', fmt(m.settled), m.settled ? mem(m.settled.peak) : ''],
        ['then after a full GC (gc())', fmt(m.afterGc), m.afterGc ? mem(m.afterGc.peak) : ''],
      ],
    ),
    '',
    `Load: ${int(m.load.rps)} req/s, p50 ${ms(m.load.p50)} ms, p99 ${ms(m.load.p99)} ms, statuses ${[...m.load.statuses].map(([s, n]) => `${int(n)}× ${s}`).join(', ')}, ` +
      `${m.load.errors} errors, ${m.load.timeouts} timeouts.`,
    `Node's view (process.memoryUsage(), read by SIGUSR2): ${nodeMemoryLine('right after', m.nodeAfterLoad)}; ${nodeMemoryLine('2 s later, after a full GC', m.nodeSettled)}.`,
    `  (arrayBuffers holds the cached audio and buffers awaiting collection; external − arrayBuffers is mostly the WebAssembly`,
    `  encoder's linear memory, which grows about 1.85 MiB per LAME encoder open at once and never shrinks; "other" = RSS − heap`,
    `  − external: code, stacks, the allocator's free pages.)`,
    `Bounds afterwards: journal lists ${m.journalEntries} entries; the first speech call's generation record answers ${m.firstGenerationStatus}` +
      ` (${m.firstGenerationStatus === 404 ? 'evicted, as it should be' : 'NOT evicted'}); the fixture generation answers ${m.fixtureGenerationStatus}.`,
  );
}

function goalsSection(res: Results, out: string[]): void {
  const rows: string[][] = [];
  const goal = (label: string, measured: string, pass: boolean, factor: number) =>
    rows.push(Number.isFinite(factor) ? [label, measured, verdict(pass), shortfall(pass, factor)] : [label, 'no requests completed (lengthen BENCH_DURATION)', 'n/a', '']);
  /** A figure shown beside the goals, with no goal of its own (`result`: 'n/a' for a goal not measured). */
  const figure = (label: string, measured: string, result = 'figure') => rows.push([label, measured, result, '']);
  const http = res.http;
  const find = (pred: (c: HttpCase) => boolean) => http?.rows.find((row) => pred(row.c));
  const get = (row: HttpRow | undefined, server: ServerName) => row?.servers.find((s) => s.server === server)?.m;
  const byCpu = (mock: Measured, other: Measured, fmt: (n: number) => string) =>
    mock.serverCpuUsPerReq !== null && other.serverCpuUsPerReq !== null ? ` (CPU/req: ${fmt(other.serverCpuUsPerReq / mock.serverCpuUsPerReq)})` : '';

  const model = find((c) => c.kind === 'model');
  const mock = get(model, 'mockrouter');
  const aimock = get(model, 'aimock');
  const bare = get(model, 'bare');
  if (mock && aimock) {
    const x = mock.rps / aimock.rps;
    goal(`model lookup ≥ ${GOALS.modelLookupOverAimock}× aimock req/s`, `${ratio(x)}${byCpu(mock, aimock, ratio)}`, x >= GOALS.modelLookupOverAimock, GOALS.modelLookupOverAimock / x);
  }
  if (mock && bare) {
    const x = mock.rps / bare.rps;
    goal(`model lookup ≥ ${percent(GOALS.modelLookupShareOfBare)} of bare req/s`, `${percent(x)}${byCpu(mock, bare, percent)}`, x >= GOALS.modelLookupShareOfBare, GOALS.modelLookupShareOfBare / x);
  }
  for (const row of http?.rows.filter((row) => row.c.kind === 'cached') ?? []) {
    const m = get(row, 'mockrouter')!;
    const b = get(row, 'bare')!;
    const x = m.rps / b.rps;
    goal(`${row.c.name} ≥ ${percent(GOALS.cachedSpeechShareOfBare)} of bare req/s`, `${percent(x)}${byCpu(m, b, percent)}`, x >= GOALS.cachedSpeechShareOfBare, GOALS.cachedSpeechShareOfBare / x);
  }
  const mp3 = res.synth.find((s) => s.format === 'mp3');
  const rt = GOALS.coldMp3TimesRealTime;
  if (mp3) {
    const first = realTime(mp3.first);
    const warm = median(mp3.rest.map(realTime));
    goal(`cold MP3 ≥ ${rt}× real time: renderer, first render of a process`, times(first), first >= rt, rt / first);
    goal(`cold MP3 ≥ ${rt}× real time: renderer, JIT-warm median`, times(warm), warm >= rt, rt / warm);
  }
  for (const row of http?.rows.filter((row) => row.c.kind === 'cold' && row.c.format === 'mp3') ?? []) {
    const m = get(row, 'mockrouter')!;
    const x = http!.audioMs[row.c.length!] / m.p50;
    goal(`cold MP3 ≥ ${rt}× real time: HTTP ${row.c.length}, p50`, times(x), x >= rt, rt / x);
  }
  if (typeof res.inProcess === 'string') rows.push(['in-process ≤ 2× a trivial msw handler', 'not measured', 'n/a', '']);
  else if (res.inProcess) {
    const [trivial, bareHandlers, attached] = res.inProcess.variants;
    for (const v of [attached!, bareHandlers!]) {
      const x = v.cpuUsPerReq / trivial!.cpuUsPerReq;
      goal(`in-process ≤ ${GOALS.inProcessOverTrivial}× a trivial msw handler (CPU/req): ${v.name}`, `${ratio(x)} (wall: ${ratio(v.wallUsPerReq / trivial!.wallUsPerReq)})`,
        x <= GOALS.inProcessOverTrivial, x / GOALS.inProcessOverTrivial);
    }
  }
  if (res.start) {
    const t = res.start.readyMs;
    const med = median(t);
    const max = Math.max(...t);
    goal(`CLI listening ≤ ${GOALS.cliReadyMs} ms after start: median`, `${ms(med)} ms`, med <= GOALS.cliReadyMs, med / GOALS.cliReadyMs);
    goal(`CLI listening ≤ ${GOALS.cliReadyMs} ms after start: slowest of ${t.length}`, `${ms(max)} ms`, max <= GOALS.cliReadyMs, max / GOALS.cliReadyMs);
    const imported = median(res.start.importMs) - median(res.start.nodeMs);
    goal(`import('mockrouter') ≤ ${GOALS.importOverNodeMs} ms more than node -e 0: medians`, `${ms(imported)} ms`, imported <= GOALS.importOverNodeMs, imported / GOALS.importOverNodeMs);
  }
  if (res.memory?.afterLoad) {
    const rss = res.memory.afterLoad.rss;
    const label = `RSS < ${GOALS.rssBytes / 1e6} MB after ${int(res.memory.requests)} mixed requests`;
    goal(label, mem(rss), rss < GOALS.rssBytes, rss / GOALS.rssBytes);
  }
  if (res.speech) speechGoals(res.speech, goal);
  if (res.store) storeGoals(res.store, goal, figure);
  if (res.catalog) catalogGoals(res.catalog, goal);
  if (res.words) wordsGoals(res.words, goal, figure);
  if (res.transcription) transcriptionGoals(res.transcription, goal, figure);
  if (res.wordsLoad) wordsLoadGoals(res.wordsLoad, goal, figure);
  out.push(
    '',
    heading('6. Goals'),
    'Shortfall: goal ÷ measured for "at least" goals, measured ÷ goal for "at most" goals (how far off, as a factor).',
    '"figure": a measurement shown beside the goals, with no goal of its own.',
    '',
    table([{ title: 'goal' }, { title: 'measured', ...r }, { title: 'result' }, { title: 'shortfall', ...r }], rows),
  );
}

function printReport(res: Results, loadAtStart: number, seconds: number): void {
  const cpu = cpus();
  const out: string[] = [
    `mockrouter bench: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}/${process.arch}`,
    `1-min load average ${loadAtStart.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (the bench itself adds about 2); ${seconds.toFixed(0)} s in all`,
    '',
  ];
  if (res.http) httpSection(res.http, out);
  if (res.http || res.synth.length > 0) coldSection(res.http, res.synth, out);
  if (res.inProcess) inProcessSection(res.inProcess, out);
  if (res.start) startSection(res.start, out);
  if (res.memory) memorySection(res.memory, out);
  if (res.speech) speechSection(res.speech, out);
  if (res.store) storeSection(res.store, out, config);
  if (res.catalog) catalogSection(res.catalog, out, config);
  if (res.words) wordsSection(res.words, out);
  if (res.transcription) transcriptionSection(res.transcription, out);
  if (res.wordsLoad) wordsLoadSection(res.wordsLoad, out);
  goalsSection(res, out);
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadavg()[0]!;
  const on = (s: Section) => config.sections.has(s);
  const res: Results = { http: null, synth: [], inProcess: null, start: null, memory: null, speech: null, store: null, catalog: null, words: null, transcription: null };
  if (on('http')) res.http = await httpBench();
  if (on('synth')) res.synth = [await synthBench('mp3'), await synthBench('pcm')];
  if (on('inprocess')) res.inProcess = await inProcessBench();
  if (on('start')) {
    progress(`CLI start, ${config.starts} times…`);
    res.start = await measureStart(config.starts);
  }
  if (on('memory')) {
    progress(`memory: ${int(config.memoryRequests)} mixed requests…`);
    res.memory = await measureMemory(config.memoryRequests, config.connections);
  }
  if (on('speech')) res.speech = await measureSpeech({ requests: config.speechRequests, longRenders: config.longRenders, starts: config.freshStarts, progress });
  if (on('store')) {
    // Imported only for this section: it loads test/support/redis.ts (and with it vitest) to run the redis-server.
    const { measureStore } = await import('./store.js');
    res.store = await measureStore({ ...config, progress });
    if (typeof res.store === 'string') progress(`store section skipped: ${res.store}`);
  }
  if (on('catalog')) res.catalog = await measureCatalog({ ...config, progress });
  if (on('words')) {
    res.words = await measureWords({
      paragraphs: config.wordsParagraphs,
      starts: config.wordsStarts,
      renders: config.wordsRenders,
      connections: Math.min(4, config.connections),
      tones: config.wordsTones,
      progress,
    });
  }
  if (on('transcription')) res.transcription = await measureTranscription({ runs: config.transcriptionRuns, distinct: config.transcriptionDistinct, progress });
  if (on('words-load')) res.wordsLoad = await measureWordsLoad({ concurrencies: config.wordsLoad, idleLookups: 200, threads: config.wordsThreads, cores: availableParallelism(), progress });
  const seconds = (performance.now() - started) / 1000;
  progress(`done in ${seconds.toFixed(0)} s\n`);
  printReport(res, loadAtStart, seconds);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    progress(`${signal}: stopping the servers`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
