/**
 * A hostile upstream for the recorder's tests (`test/record-*.test.ts`): a raw `node:net` server that reads each
 * request (head, and a body of `Content-Length` bytes) and lets the test write any bytes back, HTTP or not, or
 * none. Connections are kept until the test's handler ends or destroys them.
 *
 * @module
 */
import { createServer, type Server, type Socket } from 'node:net';

/** A request as the raw server read it. */
export interface RawRequest {
  method: string;
  /** The request target, as sent (path and query). */
  path: string;
  /** Headers, names lower-case; a repeated header's values joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** What answers a request: writes to `socket` (and ends it, or not). */
export type RawHandler = (request: RawRequest, socket: Socket) => void;

export interface RawUpstream {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request read, in order. */
  readonly requests: RawRequest[];
  /** Resolves with the next request read (the next one not yet waited for). */
  nextRequest(): Promise<RawRequest>;
  close(): Promise<void>;
}

/** An answer as raw bytes: `head` (status line, no CRLF) with `headers`, `Content-Length` and `Connection: close` added, and `body`. */
export function rawAnswer(head: string, headers: readonly [string, string][], body: string | Buffer = ''): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const lines = [head, ...headers.map(([name, value]) => `${name}: ${value}`), `Content-Length: ${bytes.length}`, 'Connection: close'];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}

/** A JSON answer of `status` (reason `OK` or `Error`) with `value` and extra `headers`. */
export function jsonAnswer(status: number, value: unknown, headers: readonly [string, string][] = []): Buffer {
  return rawAnswer(`HTTP/1.1 ${status} ${status < 400 ? 'OK' : 'Error'}`, [['Content-Type', 'application/json'], ...headers], JSON.stringify(value));
}

/** Starts a raw upstream on 127.0.0.1 and a free port; each request read goes to `handler`. */
export async function startRawUpstream(handler: RawHandler): Promise<RawUpstream> {
  const requests: RawRequest[] = [];
  const waiting: ((request: RawRequest) => void)[] = [];
  let delivered = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const [line = '', ...headerLines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const header of headerLines) {
          const colon = header.indexOf(':');
          const name = header.slice(0, colon).trim().toLowerCase();
          const value = header.slice(colon + 1).trim();
          headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const [method = '', path = ''] = line.split(' ');
        const request = { method, path, headers, body: buffer.subarray(end + 4, end + 4 + length) };
        buffer = buffer.subarray(end + 4 + length);
        requests.push(request);
        const waiter = waiting.shift();
        if (waiter !== undefined) {
          delivered++;
          waiter(request);
        }
        handler(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    nextRequest: () =>
      new Promise((resolve) => {
        if (delivered < requests.length) resolve(requests[delivered++]!);
        else waiting.push(resolve);
      }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
