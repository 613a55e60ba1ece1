/**
 * Writes a core result to Node's `ServerResponse`, with no Fetch objects in between.
 *
 * @module
 */
import { once } from 'node:events';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ChunkedBody } from '../core/body.js';
import type { CoreResponse } from '../core/types.js';

/**
 * Sends `result` straight to the raw response, so the headers are exactly the core's in both modes (fastify
 * would add `; charset=utf-8`). Bodies of one piece get a `Content-Length`; streamed bodies are written chunk
 * by chunk (chunked transfer encoding). A `delayMs` waits first; a `reset` destroys the socket; a stream that
 * throws ({@link StreamCut}) destroys it after the bytes sent so far. `onDone` runs once the response ends or
 * the connection closes.
 */
export function sendResult(reply: FastifyReply, result: CoreResponse): void {
  reply.hijack();
  const raw = reply.raw;
  if (result.onDone) raw.once('close', result.onDone);
  if (result.delayMs) {
    const timer = setTimeout(() => write(raw, result), result.delayMs);
    raw.once('close', () => clearTimeout(timer));
  } else write(raw, result);
}

/** Reason phrases Node lacks: the edge network's 524 and the provider's 529. */
const EXTRA_REASONS: Record<number, string> = { 524: 'A Timeout Occurred', 529: 'Site is overloaded' };

function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? EXTRA_REASONS[status] ?? 'Unknown';
}

function write(raw: ServerResponse, result: CoreResponse): void {
  if (raw.destroyed) return;
  if (result.reset) {
    raw.socket?.resetAndDestroy?.();
    raw.destroy();
    return;
  }
  const { body } = result;
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = body ?? '';
    raw.writeHead(result.status, reasonPhrase(result.status), { ...result.headers, 'Content-Length': String(typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength) });
    raw.end(bytes);
    return;
  }
  raw.writeHead(result.status, reasonPhrase(result.status), result.headers);
  if (body instanceof ChunkedBody) {
    for (const chunk of body.chunks()) raw.write(chunk);
    raw.end();
    return;
  }
  void pipeIterable(raw, body);
}

async function pipeIterable(raw: ServerResponse, body: AsyncIterable<Uint8Array>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  raw.once('close', () => void iterator.return?.());
  try {
    for (;;) {
      const { value, done } = await iterator.next();
      if (raw.destroyed) return;
      if (done) break;
      // Respect backpressure so a slow client never makes us buffer the whole body.
      if (!raw.write(value)) await once(raw, 'drain').catch(() => undefined);
    }
    raw.end();
  } catch {
    // A cut stream (scenario `audio.truncate`): close the connection once the bytes written so far are flushed,
    // without the final empty chunk, so the client sees a body cut short.
    raw.socket?.end();
  }
}
