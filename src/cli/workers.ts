/**
 * `--workers <n>`: n server processes on one port (`node:cluster`), sharing their state through `--store`. The
 * primary process ({@link runPrimary}) forks the workers, which run the same command with the same flags
 * (`src/cli/serve.ts`) and tell the primary ({@link tellPrimary}) once they listen or why they could not start;
 * the primary prints the ready line once all listen, stops them all on SIGINT or SIGTERM, and forks a worker that
 * died again, a bounded number of times.
 *
 * Port 0: the cluster's primary binds the listening socket for the first worker that asks (Node's round-robin
 * scheduling, the default but on Windows) and hands every other worker asking for the same address and port 0 the
 * same socket, so every worker reports the same free port.
 *
 * A worker whose primary is gone exits by itself (Node's cluster exits a worker whose IPC channel closed
 * unexpectedly), so a killed primary leaves no worker listening.
 *
 * @module
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';

/** The environment variable that gives a worker its number, 1 to n (a replacement keeps the number it replaces). */
export const WORKER_NUMBER_ENV = 'MOCKROUTER_WORKER';

/** Deaths of workers after start-up that the primary replaces within {@link RESTART_WINDOW_MS}; one more stops it. */
export const MAX_RESTARTS = 5;
/** The window of {@link MAX_RESTARTS}, ms. */
export const RESTART_WINDOW_MS = 60_000;
/**
 * How long the primary waits for every worker to listen before it prints the ready line all the same (when at least
 * one listens), with a warning naming those that do not, ms: longer than a worker's start-up with a store away
 * (its 10 s connect bound). Env `MOCKROUTER_READY_WAIT_MS` overrides it (whole ms, at least 1).
 */
export const READY_WAIT_MS = 30_000;
/** The environment variable that overrides {@link READY_WAIT_MS}. */
export const READY_WAIT_ENV = 'MOCKROUTER_READY_WAIT_MS';

/** {@link READY_WAIT_MS}, or the whole ms ≥ 1 of env {@link READY_WAIT_ENV}. */
function readyWaitMs(): number {
  const raw = Number(process.env[READY_WAIT_ENV]);
  return Number.isSafeInteger(raw) && raw >= 1 ? raw : READY_WAIT_MS;
}

/** How long the primary waits for a worker to stop after SIGTERM before it kills it (SIGKILL), ms. */
export const STOP_GRACE_MS = 10_000;

/** What a worker tells the primary: it listens (its URLs and port), or it could not start (the message to print). */
export type WorkerMessage =
  | { readonly type: 'mockrouter:listening'; readonly url: string; readonly baseUrl: string; readonly port: number }
  | { readonly type: 'mockrouter:failed'; readonly message: string };

/** The listening message of a worker. */
export type WorkerListening = Extract<WorkerMessage, { type: 'mockrouter:listening' }>;

function isWorkerMessage(value: unknown): value is WorkerMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'mockrouter:listening' || type === 'mockrouter:failed';
}

/** This process's worker number (1 to n) when it is a worker of {@link runPrimary}, else `undefined`. */
export function workerNumber(): number | undefined {
  if (!cluster.isWorker) return undefined;
  const n = Number(process.env[WORKER_NUMBER_ENV]);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** Sends `message` to the primary; resolves once it is handed to the IPC channel (so a `process.exit` after it loses nothing). */
export function tellPrimary(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/** What {@link runPrimary} needs. */
export interface PrimaryOptions {
  /** How many workers, ≥ 1. */
  readonly count: number;
  /**
   * Called once, when every worker listens, or after {@link READY_WAIT_MS} when at least one does, with the first
   * listening worker's message and how many listen (the ready line is printed here).
   */
  readonly onListening: (listening: WorkerListening, listeningCount: number) => void;
  /** Where a line goes (a reported death, the final error); default stderr, each line prefixed `mockrouter: `. */
  readonly log?: (line: string) => void;
}

/** A running primary: `stop()` stops every worker gracefully (SIGTERM) and exits the process with `code`. */
export interface RunningPrimary {
  stop(code: number, message?: string): void;
}

/** `code 1` or `signal SIGKILL`, for messages. */
function howItEnded(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `code ${code ?? '?'}`;
}

/**
 * Forks `count` workers (this script again, same arguments, `MOCKROUTER_WORKER=<k>`) and supervises them:
 *
 * - once every worker says it listens, calls `onListening` once; if some have not said so after {@link READY_WAIT_MS}
 *   (a worker stopped or stuck in its start-up), warns naming them (`worker 2 (pid 1234) is not listening after 30 s`)
 *   and calls `onListening` all the same when at least one listens, else stops, exiting 1;
 * - a worker that fails or dies before all listen (store unreachable, port in use, a bad file): the others are
 *   stopped and the process exits 1, printing that worker's message (`mockrouter: <message>`);
 * - a worker that dies later is reported (`mockrouter: worker 2 (pid 1234) exited with code 1; starting another`)
 *   and forked again with the same number; the {@link MAX_RESTARTS} + 1st death within {@link RESTART_WINDOW_MS}
 *   stops the others and exits 1;
 * - `stop(code)` (the CLI's SIGINT/SIGTERM handler calls `stop(0)`) sends SIGTERM to every worker, SIGKILL to one
 *   still running after {@link STOP_GRACE_MS}, and exits with `code` once all have exited.
 */
export function runPrimary(options: PrimaryOptions): RunningPrimary {
  const log = options.log ?? ((line: string) => process.stderr.write(`mockrouter: ${line}\n`));
  const live = new Map<number, Worker>();
  const listening = new Set<number>();
  /** The first listening message, for a ready line printed before every worker listens. */
  let firstListening: WorkerListening | undefined;
  const deaths: number[] = [];
  let allListening = false;
  let stopping = false;
  /** Set by `stop`: exits once the last worker has exited. */
  let exitWhenAllGone: (() => void) | undefined;

  const stop = (code: number, message?: string): void => {
    if (stopping) return;
    stopping = true;
    if (message !== undefined) log(message);
    exitWhenAllGone = () => process.exit(code);
    if (live.size === 0) return exitWhenAllGone();
    // The process stays alive through the workers' IPC channels until the last one has exited.
    for (const worker of live.values()) {
      worker.process.kill('SIGTERM');
      setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS).unref();
    }
  };

  const fork = (k: number): void => {
    const worker = cluster.fork({ [WORKER_NUMBER_ENV]: String(k) });
    live.set(k, worker);
    let failure: string | undefined;
    worker.on('message', (message: unknown) => {
      if (!isWorkerMessage(message) || stopping) return;
      if (message.type === 'mockrouter:failed') {
        failure = message.message;
        return;
      }
      listening.add(k);
      firstListening ??= message;
      if (!allListening && listening.size === options.count) {
        allListening = true;
        clearTimeout(readyTimer);
        options.onListening(message, listening.size);
      }
    });
    worker.once('exit', (code, signal) => {
      void (async () => {
        // Messages sent just before the exit may still be on their way: the channel closes after the last one.
        if (worker.isConnected()) await once(worker, 'disconnect');
        live.delete(k);
        listening.delete(k);
        if (stopping) {
          if (live.size === 0) exitWhenAllGone?.();
          return;
        }
        const pid = worker.process.pid;
        if (!allListening) return stop(1, failure ?? `worker ${k} (pid ${pid}) exited with ${howItEnded(code, signal)} before listening`);
        const now = Date.now();
        deaths.push(now);
        while (deaths[0]! <= now - RESTART_WINDOW_MS) deaths.shift();
        const why = failure === undefined ? `exited with ${howItEnded(code, signal)}` : `could not start: ${failure}`;
        if (deaths.length > MAX_RESTARTS) {
          return stop(1, `worker ${k} (pid ${pid}) ${why}; workers died ${deaths.length} times within ${RESTART_WINDOW_MS / 1000} s, stopping`);
        }
        log(`worker ${k} (pid ${pid}) ${why}; starting another`);
        fork(k);
      })();
    });
  };

  const waitMs = readyWaitMs();
  const readyTimer = setTimeout(() => {
    if (allListening || stopping) return;
    const late = [...live].filter(([k]) => !listening.has(k)).map(([k, worker]) => `worker ${k} (pid ${worker.process.pid})`);
    if (!firstListening) return stop(1, `no worker is listening after ${waitMs / 1000} s (${late.join(', ')}), stopping`);
    log(`${late.join(', ')} ${late.length === 1 ? 'is' : 'are'} not listening after ${waitMs / 1000} s; the others serve`);
    allListening = true;
    options.onListening(firstListening, listening.size);
  }, waitMs);
  readyTimer.unref();
  for (let k = 1; k <= options.count; k++) fork(k);
  return { stop };
}
