/**
 * The ceiling: a bare `node:http` server (child process of bench/run.ts, 127.0.0.1, free port) that replays
 * one recorded mockrouter response verbatim: status, headers as the mock wrote them, body bytes, and the same
 * framing (Content-Length, or chunked in the mock's chunk size). It reads the request body to its end before
 * answering, as the mock does, and does nothing else.
 *
 * Protocol (IPC): sends `{ type: 'ready', port }`; on `{ type: 'serve', ... }` replaces the response and
 * answers `{ type: 'serving' }`. Exits on SIGTERM or when the parent goes away.
 *
 * @module
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BareMessage } from './targets.js';

let status = 404;
let headers: string[] = ['Content-Type', 'text/plain'];
let body: Buffer = Buffer.from('nothing to serve yet');
let chunks: Buffer[] | null = null;

function reply(res: ServerResponse): void {
  res.writeHead(status, headers);
  if (chunks) {
    for (const chunk of chunks) res.write(chunk);
    res.end();
  } else {
    res.end(body);
  }
}

const server = createServer((req, res) => {
  req.on('end', () => reply(res));
  req.resume();
});
// The same keep-alive timeout as fastify's default (72 s), so the Keep-Alive header matches too.
server.keepAliveTimeout = 72_000;

process.on('message', (message: BareMessage) => {
  if (message.type !== 'serve') return;
  status = message.status;
  headers = message.headers;
  body = Buffer.from(message.body, 'base64');
  const size = message.chunkSize;
  chunks = null;
  if (size !== null) {
    chunks = [];
    for (let offset = 0; offset < body.byteLength; offset += size) chunks.push(body.subarray(offset, offset + size));
  }
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
