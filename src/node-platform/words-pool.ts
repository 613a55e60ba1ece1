/**
 * The words threads of the Node.js platform (`Platform.wordsPool`, `src/core/audio/words/words-pool.ts`):
 * `node:worker_threads` running `words-worker.ts`, one process-wide set shared by every gateway that uses them, so
 * Flite's CPU work leaves the thread that answers requests (`docs/speech.md`, "Threads").
 *
 * - Size: as many threads as the largest number a gateway using them asked for (option `wordsThreads`, at most the
 *   cores), started one at a time as requests need them: a request goes to an idle thread, else to a new one while
 *   there are fewer than that, else to the thread with the fewest requests (which then take turns piece by piece).
 * - The engine: the `WebAssembly.Module` compiled on this thread (`loadFlite`), posted to each thread with its first
 *   request; V8 shares its compiled code, so no thread compiles it again.
 * - A thread that dies (its exit, an uncaught error, a thread ended from outside): its requests start again on
 *   another thread from the first piece, and only the bytes not yet passed on are passed on (the render is
 *   deterministic, so they are the same bytes); a request whose second thread dies too fails. A render that fails
 *   on its thread (Flite's error, a trap of its WebAssembly) fails its request alone; the thread goes on.
 * - Lifetime: a thread holds the process open only while it has requests (`ref`/`unref`), so an idle pool never
 *   keeps a test runner or a script alive; when the last gateway using the threads releases them (its `close()`),
 *   they are ended (`terminate()`), and requests still on them fail.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AudioFormat, SynthesisRequest } from '../core/audio/types.js';
import type { SaidPiece } from '../core/audio/words/render-words.js';
import type { WordsPool } from '../core/audio/words/words-pool.js';
import type { FromThread, ToThread } from './words-worker.js';

/** One request said on the threads, and how far it got. */
class Job {
  readonly chunks: Uint8Array[] = [];
  state: 'running' | 'ended' | 'failed' | 'stopped' = 'running';
  error: Error | undefined;
  waiting: (() => void) | undefined;
  thread: WordsThread | undefined;
  /** Threads that died under it. */
  deaths = 0;
  /** Pieces and chunks the current thread gave, and those passed on in all (a thread after a death repeats them). */
  seenPieces = 0;
  givenPieces = 0;
  seenChunks = 0;
  givenChunks = 0;

  constructor(
    readonly id: number,
    readonly module: WebAssembly.Module,
    readonly req: SynthesisRequest,
    readonly format: AudioFormat,
    readonly onPiece: (piece: SaidPiece) => void,
  ) {}

  settle(state: 'ended' | 'failed', error?: Error): void {
    if (this.state !== 'running') return;
    this.state = state;
    this.error = error;
    detach(this);
    this.wake();
  }

  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}

/** One thread and the requests on it. */
interface WordsThread {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
  /** The engine it was given. */
  module: WebAssembly.Module | undefined;
  /** Its uncaught error, if it had one (for the message of the requests it fails). */
  error: Error | undefined;
  /** Being ended by {@link release}: its requests fail rather than start again. */
  closing: boolean;
}

const threads = new Set<WordsThread>();
/** The gateways using the threads, and how many each wants. */
const holders = new Map<object, number>();
let nextId = 1;

/**
 * Where the thread's code is: `words-worker.js` beside this module (built: `dist/node-platform/`, `dist/lib/` for the
 * bundled package entries, or `dist/bin/` for the bundled CLI), else, run from the TypeScript sources (the test suite, `npm run dev`), `words-worker.ts` loaded
 * through tsx in the thread.
 */
function startWorker(): Worker {
  const built = new URL('./words-worker.js', import.meta.url);
  // None of the process's own flags: a preloaded module (`--import`) or a profiler is the process's business, not the
  // thread's (a module preloaded to watch stdin would run again in the thread).
  const options = { name: 'mockrouter words', execArgv: [] };
  if (existsSync(fileURLToPath(built))) return new Worker(built, options);
  const source = new URL('./words-worker.ts', import.meta.url).href;
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** Holds the process open while `thread` has requests, not otherwise. */
function holdWhileBusy(thread: WordsThread): void {
  if (thread.jobs.size > 0) thread.worker.ref();
  else thread.worker.unref();
}

function detach(job: Job): void {
  const thread = job.thread;
  job.thread = undefined;
  if (!thread) return;
  thread.jobs.delete(job.id);
  holdWhileBusy(thread);
}

function spawn(): WordsThread {
  const thread: WordsThread = { worker: startWorker(), jobs: new Map(), module: undefined, error: undefined, closing: false };
  threads.add(thread);
  thread.worker.on('message', (message: FromThread) => receive(thread, message));
  thread.worker.on('error', (error) => void (thread.error ??= error));
  thread.worker.on('exit', (code) => died(thread, code));
  holdWhileBusy(thread);
  return thread;
}

function receive(thread: WordsThread, message: FromThread): void {
  const job = thread.jobs.get(message.id);
  if (!job) return;
  if (message.type === 'piece') {
    if (++job.seenPieces > job.givenPieces) {
      job.givenPieces++;
      job.onPiece(message.piece);
    }
  } else if (message.type === 'bytes') {
    if (++job.seenChunks > job.givenChunks) {
      job.givenChunks++;
      job.chunks.push(message.bytes);
      job.wake();
    }
  } else if (message.type === 'end') {
    job.settle('ended');
  } else {
    const error = new Error(message.message);
    error.name = message.name;
    job.settle('failed', error);
  }
}

/** A thread ended: its requests start again elsewhere, or fail (see the module's comment). */
function died(thread: WordsThread, code: number): void {
  threads.delete(thread);
  const why = thread.closing ? 'the words threads were closed' : `the thread saying these words died (exit code ${code}${thread.error ? `: ${thread.error.message}` : ''})`;
  for (const job of [...thread.jobs.values()]) {
    job.thread = undefined;
    thread.jobs.delete(job.id);
    job.deaths++;
    if (thread.closing || job.deaths >= 2 || holders.size === 0) job.settle('failed', new Error(why));
    else place(job);
  }
}

/** The thread for a new request (see the module's comment). */
function choose(): WordsThread {
  const wanted = Math.max(1, ...holders.values());
  let best: WordsThread | undefined;
  for (const thread of threads) if (!best || thread.jobs.size < best.jobs.size) best = thread;
  if (best && best.jobs.size === 0) return best;
  return threads.size < wanted || !best ? spawn() : best;
}

/** Starts `job` on a thread, from its first piece. */
function place(job: Job): void {
  const thread = choose();
  job.thread = thread;
  job.seenPieces = 0;
  job.seenChunks = 0;
  thread.jobs.set(job.id, job);
  const module = thread.module === job.module ? undefined : job.module;
  thread.module = job.module;
  const message: ToThread = { type: 'say', id: job.id, req: job.req, format: job.format, module };
  thread.worker.postMessage(message);
  holdWhileBusy(thread);
}

async function* say(module: WebAssembly.Module, req: SynthesisRequest, format: AudioFormat, onPiece: (piece: SaidPiece) => void): AsyncGenerator<Uint8Array> {
  const job = new Job(nextId++, module, req, format, onPiece);
  place(job);
  try {
    for (;;) {
      while (job.chunks.length === 0) {
        if (job.state === 'ended') return;
        if (job.state === 'failed') throw job.error!;
        await new Promise<void>((resolve) => (job.waiting = resolve));
      }
      yield job.chunks.shift()!;
    }
  } finally {
    if (job.state === 'running') {
      job.state = 'stopped';
      const stop: ToThread = { type: 'stop', id: job.id };
      job.thread?.worker.postMessage(stop);
      detach(job);
    }
  }
}

/** Ends every thread (the last gateway using them released them). */
async function closeAll(): Promise<void> {
  const ending = [...threads];
  for (const thread of ending) thread.closing = true;
  await Promise.all(ending.map((thread) => thread.worker.terminate()));
}

/**
 * A gateway's use of the words threads: at most `size` of them (≥ 1) while it holds them.
 *
 * @param size the threads the gateway wants (option `wordsThreads`, already at most the cores).
 */
export function acquireWordsPool(size: number): WordsPool {
  const holder = {};
  holders.set(holder, size);
  return {
    say,
    release() {
      if (!holders.delete(holder) || holders.size > 0) return Promise.resolve();
      return closeAll();
    },
  };
}

/**
 * The live threads, for the simulator's own tests (a thread ended from outside, as if it died); not part of the
 * package's API.
 *
 * @internal
 */
export function wordsThreadsNow(): readonly Worker[] {
  return [...threads].map((thread) => thread.worker);
}
