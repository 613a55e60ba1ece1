/**
 * The ceiling: a bare `node:http` server (child process of bench/run.ts, 127.0.0.1, free port) that replays
 * one recorded mockrouter response verbatim: status, headers as the mock wrote them, body bytes, and the same
 * framing (Content-Length, or chunked in the mock's chunk size). It reads the request body to its end before
 * answering, as the mock does, and does nothing else.
 *
 * For a mixed load it holds several responses and picks one by the request's `X-Bench-Case` header (which
 * only the bare server is sent: the header lookup is its whole routing cost).
 *
 * Protocol (IPC): sends `{ type: 'ready', port }`; on `{ type: 'serve', response, routes? }` replaces the
 * responses and answers `{ type: 'serving' }`. Exits on SIGTERM or when the parent goes away.
 *
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_TIMEOUTS } from '../src/server/timeouts.js';
import type { BareMessage, WireRecorded } from './targets.js';

/** One prepared response: status, raw headers, and the body whole or in the mock's chunks. */
interface Prepared {
  status: number;
  headers: string[];
  body: Buffer;
  chunks: Buffer[] | null;
}

let fallback: Prepared = { status: 404, headers: ['Content-Type', 'text/plain'], body: Buffer.from('nothing to serve yet'), chunks: null };
/** Responses chosen by the request's `X-Bench-Case` header (mixed loads); others get `fallback`. */
let routes = new Map<string, Prepared>();

function prepare(response: WireRecorded): Prepared {
  const body = Buffer.from(response.body, 'base64');
  const size = response.chunkSize;
  let chunks: Buffer[] | null = null;
  if (size !== null) {
    chunks = [];
    for (let offset = 0; offset < body.byteLength; offset += size) chunks.push(body.subarray(offset, offset + size));
  }
  return { status: response.status, headers: response.headers, body, chunks };
}

function reply(res: ServerResponse, prepared: Prepared): void {
  res.writeHead(prepared.status, prepared.headers);
  if (prepared.chunks) {
    for (const chunk of prepared.chunks) res.write(chunk);
    res.end();
  } else {
    res.end(prepared.body);
  }
}

const server = createServer((req, res) => {
  const key = req.headers['x-bench-case'];
  const prepared = (routes.size > 0 && typeof key === 'string' && routes.get(key)) || fallback;
  req.on('end', () => reply(res, prepared));
  req.resume();
});
// The same keep-alive timeout as the standalone server's default (`SERVER_TIMEOUTS.keepAlive`, 5 s), so the
// Keep-Alive header matches too.
server.keepAliveTimeout = SERVER_TIMEOUTS.keepAlive;

process.on('message', (message: BareMessage) => {
  if (message.type !== 'serve') return;
  fallback = prepare(message.response);
  routes = new Map(Object.entries(message.routes ?? {}).map(([key, response]) => [key, prepare(response)]));
  process.send?.({ type: 'serving' } satisfies BareMessage);
});

const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', port } satisfies BareMessage);
});
