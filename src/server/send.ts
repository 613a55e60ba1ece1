/**
 * Writes a core result to Node's `ServerResponse`, with no Fetch objects in between.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ChunkedBody } from '../core/body.js';
import type { CoreResponse } from '../core/types.js';

/**
 * Sends `result` straight to the raw response, so the headers are exactly the core's in both modes (fastify
 * would add `; charset=utf-8`). Bodies of one piece get a `Content-Length`; streamed bodies are written chunk
 * by chunk (chunked transfer encoding), and a client that goes away mid-stream just ends the loop.
 */
export function sendResult(reply: FastifyReply, result: CoreResponse): void {
  const { body } = result;
  reply.hijack();
  const raw = reply.raw;
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = body ?? '';
    raw.writeHead(result.status, { ...result.headers, 'Content-Length': String(typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength) });
    raw.end(bytes);
    return;
  }
  raw.writeHead(result.status, result.headers);
  if (body instanceof ChunkedBody) {
    for (const chunk of body.chunks()) raw.write(chunk);
    raw.end();
    return;
  }
  void pipeIterable(raw, body);
}

async function pipeIterable(raw: ServerResponse, body: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const chunk of body) {
      if (raw.destroyed) return;
      raw.write(chunk);
    }
    raw.end();
  } catch {
    raw.destroy();
  }
}
