/**
 * A standalone mockrouter (`startServer`, from the sources) in a child process that can report on itself, for the
 * load and bad-client tests: its open TCP connections, its active handles, its heap after a forced GC and a
 * summary of its journal. Keeping the server in its own process means the client sockets of the test never count
 * as the server's, and `--expose-gc` can be given to it alone.
 *
 * Started by `startInstrumented` (instrumented.ts) as
 * `node --expose-gc --import tsx instrumented-server.ts '<options JSON>'` with an IPC channel; it always listens on
 * 127.0.0.1. Messages in: `{ id, type: 'stats', gc?, recent? }`, `{ id, type: 'close' }`. Messages out:
 * `{ type: 'ready', url, baseUrl, port }` once listening, then one reply per message with the same `id`.
 *
 * @module
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { startServer, type ServerOptions } from '../../src/server/index.js';
import type { ServerStats, ParentMessage } from './instrumented.js';

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
const server = await startServer({ ...options, port: options.port ?? 0, host: '127.0.0.1' });

/** Inodes of the TCP sockets in this network namespace that are not listening (state `0A`); `null` without `/proc`. */
function connectedTcpInodes(): Set<string> | null {
  const inodes = new Set<string>();
  let found = false;
  for (const file of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    found = true;
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== '0A' && fields[9] !== undefined) inodes.add(fields[9]);
    }
  }
  return found ? inodes : null;
}

/** This process's connected TCP sockets, from its file descriptors (Linux); `null` elsewhere. */
function openTcpConnections(): number | null {
  const tcp = connectedTcpInodes();
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return null;
  }
  if (!tcp) return null;
  let count = 0;
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile (the fd readdir itself used)
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined && tcp.has(inode)) count++;
  }
  return count;
}

/**
 * The resources a leak would show up in: sockets, servers, timers. Requests that come and go on their own (a
 * pending fs read, a socket close or shutdown in progress) are left out: a baseline taken during one would never
 * match again.
 */
const LONG_LIVED = new Set(['TCPSocketWrap', 'TCPServerWrap', 'PipeWrap', 'Timeout', 'Immediate', 'TTYWrap']);

/** Long-lived handles by type, keys sorted (so two reports compare as JSON). */
function handleCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo().sort()) {
    if (LONG_LIVED.has(type)) counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

function stats(gc: boolean, recent: number): ServerStats {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (gc && collect) for (let i = 0; i < 3; i++) collect();
  const statuses: Record<string, number> = {};
  let unfinished = 0;
  let lastSeq = 0;
  for (const entry of server.gateway.journal) {
    statuses[entry.status] = (statuses[entry.status] ?? 0) + 1;
    if (entry.duration_ms === null) unfinished++;
    lastSeq = entry.seq;
  }
  const memory = process.memoryUsage();
  return {
    heapUsed: memory.heapUsed,
    rss: memory.rss,
    gcExposed: collect !== undefined,
    tcpConnections: openTcpConnections(),
    handles: handleCounts(),
    journal: { size: server.gateway.journal.size, lastSeq, statuses, unfinished },
    recent: recent > 0
      ? server.gateway.journal
          .list()
          .slice(-recent)
          .map(({ seq, operation, status, scenario, rule, duration_ms }) => ({ seq, operation, status, scenario, rule, duration_ms }))
      : [],
  };
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stats') process.send?.({ id: message.id, stats: stats(message.gc === true, message.recent ?? 0) });
  else if (message.type === 'close') {
    void server.close().then(() => {
      process.send?.({ id: message.id });
      process.disconnect?.();
    });
  }
});
process.send?.({ type: 'ready', url: server.url, baseUrl: server.baseUrl, port: server.port });
