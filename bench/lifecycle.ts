/**
 * The CLI's start time and the standalone server's resident memory under a long mixed load.
 *
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { memoryLoad, speechRequest, GENERATION_LOOKUP } from './cases.js';
import { capture, combine, run, type Measured } from './load.js';
import { EXIT_WITH_PARENT, MOCK_BIN, spawnChild, startMock, stopChild, waitForLine } from './targets.js';

export interface StartResult {
  /** Spawn to the ready line on stdout, ms, in order. */
  readyMs: number[];
  /** Spawn to exit of `node -e 0` (Node.js's own start, the floor of any CLI), ms, in order, as many times. */
  nodeMs: number[];
  /**
   * Spawn to exit of `node --input-type=module -e "await import('<dist/lib/index.js>')"` (the main entry as the
   * package's `exports` name it, bundled by `scripts/bundle-lib.mjs`; msw installed but not loaded by the import), ms,
   * in order, as many times.
   */
  importMs: number[];
  /** The same import of `dist/index.js`, the entry as tsc compiled it (unbundled): the baseline the bundle is judged beside. */
  unbundledMs: number[];
  /**
   * Spawn to the ready line of a bare `node:http` server ({@link BARE_LISTEN}: `createServer`, `listen(0,
   * '127.0.0.1')`, one line on stdout), ms, in order, as many times: the floor of any HTTP server's start on this
   * machine, which the CLI's ready time is shown over.
   */
  bareListenMs: number[];
}

/** The smallest `node:http` server that prints a ready line like the CLI's once it listens (an ES module, `-e`). */
const BARE_LISTEN =
  "import { createServer } from 'node:http'; const server = createServer((req, res) => res.end()); server.listen(0, '127.0.0.1', () => process.stdout.write(`mockrouter listening on http://127.0.0.1:${server.address().port}/api/v1\\n`));";

/** The package's main entry, built and bundled (`exports["."]` of package.json). */
const MAIN_ENTRY = new URL('../dist/lib/index.js', import.meta.url).href;
/** The same entry as tsc compiled it, one module a source file. */
const UNBUNDLED_ENTRY = new URL('../dist/index.js', import.meta.url).href;

/**
 * Spawns `node bin/mockrouter.js --port 0 --quiet` (plus `--host 127.0.0.1`, its default) `times` times, one
 * after the other, and times each from `spawn()` to the ready line on its stdout. Each is stopped before the
 * next starts. Like the other servers it preloads the tiny exit-with-parent module (a `data:` URL, about a
 * millisecond), so none is left behind if the bench is killed mid-start. Before them, `node -e 0` runs as
 * many times (spawn to exit), the part of each start that is Node.js's own, each followed by a process that only
 * imports the main entry (`import('mockrouter')`, spawn to exit) and one that imports it unbundled (`dist/index.js`).
 * Each CLI start is followed by a bare `node:http` server's start ({@link StartResult.bareListenMs}).
 *
 * @param times how many starts of each (the bench's default: 10, `BENCH_STARTS`).
 * @returns the times in ms, in run order ({@link StartResult}).
 * @throws {Error} when `node -e 0` fails or a start prints no ready line (see `waitForLine`).
 */
export async function measureStart(times: number): Promise<StartResult> {
  const nodeMs: number[] = [];
  const importMs: number[] = [];
  const unbundledMs: number[] = [];
  const timeExit = async (args: string[], what: string): Promise<number> => {
    const started = performance.now();
    const child = spawnChild(args);
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${what} exited with ${code}`);
    return performance.now() - started;
  };
  for (let i = 0; i < times; i++) {
    nodeMs.push(await timeExit(['-e', '0'], 'node -e 0'));
    importMs.push(await timeExit(['--input-type=module', '-e', `await import(${JSON.stringify(MAIN_ENTRY)})`], "import('mockrouter')"));
    unbundledMs.push(await timeExit(['--input-type=module', '-e', `await import(${JSON.stringify(UNBUNDLED_ENTRY)})`], 'import of dist/index.js'));
  }
  const readyMs: number[] = [];
  const bareListenMs: number[] = [];
  const timeReady = async (args: string[], what: string): Promise<number> => {
    const started = performance.now();
    const child = spawnChild(args, { execArgv: ['--import', EXIT_WITH_PARENT] });
    await waitForLine(child, /mockrouter listening on http:\/\/127\.0\.0\.1:\d+/, what);
    const ms = performance.now() - started;
    await stopChild(child);
    return ms;
  };
  for (let i = 0; i < times; i++) {
    readyMs.push(await timeReady([MOCK_BIN, '--port', '0', '--host', '127.0.0.1', '--quiet'], 'mockrouter'));
    bareListenMs.push(await timeReady(['--input-type=module', '-e', BARE_LISTEN], 'a bare node:http server'));
  }
  return { readyMs, nodeMs, importMs, unbundledMs, bareListenMs };
}

/** Memory of a process from `/proc/<pid>/status`, bytes; `null` without procfs. */
export interface ProcMemory {
  /** Resident set size now (`VmRSS`). */
  rss: number;
  /** Peak resident set size so far (`VmHWM`). */
  peak: number;
}

export function procMemory(pid: number | undefined): ProcMemory | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(/^(\w+):\s+(\d+) kB$/m.exec(status.split('\n').find((line) => line.startsWith(`${field}:`)) ?? '')?.[2]);
    const rss = kib('VmRSS');
    const peak = kib('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rss: rss * 1024, peak: peak * 1024 } : null;
  } catch {
    return null;
  }
}

/** Node's own view of the server's memory (`process.memoryUsage()`), bytes, read through {@link MEMORY_PROBE}. */
export type NodeMemory = Record<'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers', number>;

/**
 * Preloaded into the memory run's server (a `data:` module): on SIGUSR2 it writes `process.memoryUsage()` as one
 * line to stderr, so the report can say where the resident memory is (V8 heap, off-heap buffers, the rest). From
 * the second signal on it first runs a full garbage collection (the server runs with `--expose-gc`, which changes
 * nothing else), so the settled reading shows what is live rather than what awaits collection.
 */
const MEMORY_PROBE = `data:text/javascript,${encodeURIComponent(
  "process.on('SIGUSR2', () => { if (globalThis.__benchGc) globalThis.gc?.(); globalThis.__benchGc = true; process.stderr.write('bench-memory ' + JSON.stringify(process.memoryUsage()) + '\\n'); });",
)}`;

/** Asks the server for its {@link NodeMemory} (SIGUSR2, answer on stderr); `null` if it does not answer in 2 s. */
async function nodeMemory(child: ChildProcess): Promise<NodeMemory | null> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (part: Buffer | string) => {
      text += String(part);
      const match = /bench-memory (\{[^\n]*\})\n/.exec(text);
      if (match) finish(JSON.parse(match[1]!) as NodeMemory);
    };
    const timer = setTimeout(() => finish(null), 2000);
    function finish(value: NodeMemory | null) {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      resolve(value);
    }
    child.stderr?.on('data', onData);
    child.kill('SIGUSR2');
  });
}

export interface MemoryResult {
  requests: number;
  /** Node's view right after the load and 2 s later (heap, off-heap buffers). */
  nodeAfterLoad: NodeMemory | null;
  /** 2 s later, after a full garbage collection. */
  nodeSettled: NodeMemory | null;
  /** `VmRSS` after that collection. */
  afterGc: ProcMemory | null;
  /** After the ready line and one second idle. */
  atStart: ProcMemory | null;
  /** Right after the last response. */
  afterLoad: ProcMemory | null;
  /** Two seconds later, idle. */
  settled: ProcMemory | null;
  load: Measured;
  /** Journal entries the admin API lists afterwards (bound: 1000). */
  journalEntries: number;
  /** Status of a lookup, afterwards, of the first speech call's generation record (404 once evicted). */
  firstGenerationStatus: number;
  /** Status of the fixture generation lookup afterwards (fixtures are never evicted). */
  fixtureGenerationStatus: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the CLI server, reads its RSS, sends `requests` requests of the memory mix ({@link memoryLoad}) over
 * `connections` connections, and reads its RSS again; checks that the journal and the generation store stayed
 * bounded.
 */
export async function measureMemory(requests: number, connections: number): Promise<MemoryResult> {
  const mock = await startMock(['--expose-gc', '--import', MEMORY_PROBE]);
  try {
    await sleep(1000);
    const atStart = procMemory(mock.child.pid);
    const firstSpeech = await capture(mock.origin, speechRequest('pcm', 'sentence', 0));
    const firstId = firstSpeech.headers[firstSpeech.headers.findIndex((h) => h.toLowerCase() === 'x-generation-id') + 1];
    if (firstSpeech.status !== 200 || !firstId) throw new Error(`memory run: first speech call answered ${firstSpeech.status}`);

    const slice = await run(mock, memoryLoad(), connections, { amount: requests }, true, 60);
    const afterLoad = procMemory(mock.child.pid);
    const nodeAfterLoad = await nodeMemory(mock.child);
    await sleep(2000);
    const settled = procMemory(mock.child.pid);
    const nodeSettled = await nodeMemory(mock.child);
    const afterGc = procMemory(mock.child.pid);

    const journal = await capture(mock.origin, { method: 'GET', path: '/__mock/requests', headers: {} });
    const journalEntries = (JSON.parse(journal.body.toString()) as { requests: unknown[] }).requests.length;
    const auth = GENERATION_LOOKUP.headers;
    const firstGeneration = await capture(mock.origin, { method: 'GET', path: `/api/v1/generation?id=${firstId}`, headers: auth });
    const fixtureGeneration = await capture(mock.origin, GENERATION_LOOKUP);
    return {
      requests,
      atStart,
      afterLoad,
      settled,
      nodeAfterLoad,
      nodeSettled,
      afterGc,
      load: combine([slice]),
      journalEntries,
      firstGenerationStatus: firstGeneration.status,
      fixtureGenerationStatus: fixtureGeneration.status,
    };
  } finally {
    await stopChild(mock.child);
  }
}
