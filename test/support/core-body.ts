/**
 * The whole body of a core response (`CoreResponse` of `src/core/base/types.ts`, what `Gateway.handle` answers), read
 * in a test: `null` is empty, a string is UTF-8, bytes are themselves, a stream is read to its end.
 *
 * @module
 */
import type { CoreResponse } from '../../src/core/base/types.js';

/** The whole body of `response`, as bytes; rejects as the stream does when it ends in an error. */
export async function bodyOf(response: CoreResponse): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array();
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk.slice());
  return Buffer.concat(chunks);
}
