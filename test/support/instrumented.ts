/**
 * Starts instrumented-server.ts (a standalone mockrouter in a child process, from the sources, with `--expose-gc`)
 * and asks it about itself: open TCP connections, active handles, heap after a forced GC, journal summary.
 *
 * @module
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { JournalEntry } from '../../src/core/journal/journal.js';
import type { ServerOptions } from '../../src/server/index.js';

/** What the child reports. */
export interface ServerStats {
  /** `process.memoryUsage().heapUsed`, bytes (after three `gc()` when asked and exposed). */
  heapUsed: number;
  rss: number;
  /** Whether the child could force a GC (it is started with `--expose-gc`). */
  gcExposed: boolean;
  /** Connected (not listening) TCP sockets among the child's file descriptors; `null` without `/proc`. */
  tcpConnections: number | null;
  /** `process.getActiveResourcesInfo()` as counts per type (`TCPSocketWrap`, `Timeout`, ...). */
  handles: Record<string, number>;
  /** Over the entries the journal keeps: count per status, entries still streaming, the last `seq`. */
  journal: { size: number; lastSeq: number; statuses: Record<string, number>; unfinished: number };
  /** The last `recent` journal entries asked for, in short. */
  recent: Pick<JournalEntry, 'seq' | 'operation' | 'status' | 'scenario' | 'rule' | 'duration_ms'>[];
}

/** Messages the child accepts. */
export type ParentRequest = { type: 'stats'; gc?: boolean; recent?: number } | { type: 'close' };
/** A {@link ParentRequest} with the id its reply carries. */
export type ParentMessage = ParentRequest & { id: number };

/** A running instrumented server. */
export interface InstrumentedServer {
  url: string;
  baseUrl: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** The child's stats; `gc` forces a collection first, `recent` adds the last entries of the journal. */
  stats(options?: { gc?: boolean; recent?: number }): Promise<ServerStats>;
  /** Polls {@link stats} every 50 ms until `done` holds or `timeoutMs` passes; returns the last stats and the time. */
  waitFor(
    done: (stats: ServerStats) => boolean,
    timeoutMs: number,
    options?: { recent?: number },
  ): Promise<{ stats: ServerStats; ok: boolean; ms: number }>;
  close(): Promise<void>;
}

const SCRIPT = new URL('./instrumented-server.ts', import.meta.url).pathname;

/** Connected TCP sockets of the server, from `/proc` when available, else its `TCPSocketWrap` handles. */
export function openSockets(stats: ServerStats): number {
  return stats.tcpConnections ?? stats.handles.TCPSocketWrap ?? 0;
}

/** The CLI's cap on V8's young generation (src/cli/heap-limits.ts), for a child that should use memory as `mockrouter` does. */
const HEAP_LIMITS = new URL('../../src/cli/heap-limits.ts', import.meta.url).pathname;

/**
 * Starts the server with `options` (JSON-serialisable; `port` 0 unless given; always on 127.0.0.1).
 *
 * @param process `{ cli: true }` to run it with the `mockrouter` command's heap limits (its resident memory is then
 *   the command's, not that of a library user's process).
 */
export async function startInstrumented(options: Omit<ServerOptions, 'logger'> = {}, process: { cli?: boolean } = {}): Promise<InstrumentedServer> {
  const child = fork(SCRIPT, [JSON.stringify(options)], {
    execArgv: ['--expose-gc', '--import', 'tsx', ...(process.cli ? ['--import', HEAP_LIMITS] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, (message: { stats?: ServerStats }) => void>();
  let nextId = 1;
  const ready = new Promise<{ url: string; baseUrl: string; port: number }>((resolve, reject) => {
    child.on('message', (message: { type?: string; id?: number; url: string; baseUrl: string; port: number; stats?: ServerStats }) => {
      if (message.type === 'ready') resolve(message);
      else if (message.id !== undefined) {
        pending.get(message.id)?.(message);
        pending.delete(message.id);
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`instrumented server exited (${code ?? signal}) before it was ready`)));
    child.once('error', reject);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  let started: { url: string; baseUrl: string; port: number };
  try {
    started = await ready;
  } finally {
    clearTimeout(timer);
  }
  const call = (message: ParentRequest) =>
    new Promise<{ stats?: ServerStats }>((resolve, reject) => {
      if (!child.connected) return reject(new Error('instrumented server is gone'));
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ ...message, id });
    });
  const stats = async (options: { gc?: boolean; recent?: number } = {}) =>
    (await call({ type: 'stats', gc: options.gc === true, recent: options.recent ?? 0 })).stats!;
  return {
    ...started,
    pid: child.pid!,
    child,
    stats,
    async waitFor(done, timeoutMs, options = {}) {
      const t0 = performance.now();
      for (;;) {
        const s = await stats(options);
        const ms = performance.now() - t0;
        if (done(s)) return { stats: s, ok: true, ms };
        if (ms > timeoutMs) return { stats: s, ok: false, ms };
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      try {
        if (child.connected) await call({ type: 'close' });
        child.kill('SIGTERM');
        await exited;
      } finally {
        clearTimeout(kill);
      }
    },
  };
}
