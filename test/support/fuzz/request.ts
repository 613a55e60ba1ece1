/**
 * The generated request every fuzz generator makes and every transport sends, and how it is printed in a
 * counterexample; small text helpers shared by the generators and the oracles.
 *
 * @module
 */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/http/routes.js';

/**
 * The operations the fuzz generators make requests for (all eight of `src/core/http/routes.ts` today). Switches over
 * it stay exhaustive when `Operation` gains members the fuzzer does not generate yet.
 */
export type FuzzedOperation = Extract<Operation, 'speech' | 'model' | 'generation' | 'models' | 'models-count' | 'endpoints' | 'key' | 'credits'>;

/** One generated request. `target` is the path and query as the generator meant them (before any transport). */
export interface FuzzRequest {
  operation: FuzzedOperation;
  /** Which generator branch made it (for the statistics). */
  kind: string;
  method: string;
  target: string;
  /** Header lines, in order; a name may repeat. */
  headers: [string, string][];
  body?: Uint8Array | undefined;
  /** Send the body with `Transfer-Encoding: chunked`, in two pieces (standalone transport only). */
  chunked?: boolean;
}

/** UTF-8 encoder. */
export const utf8 = new TextEncoder();

/** The first `max` bytes as latin-1 text (one character a byte), for messages. */
export const latin1 = (bytes: Uint8Array, max = 160): string => Buffer.from(bytes.subarray(0, max)).toString('latin1');

/** The UTF-8 bytes of `JSON.stringify(value)`. */
export const json = (value: unknown): Uint8Array => utf8.encode(JSON.stringify(value));

/** `text` cut to `max` UTF-16 units, with its full length noted when cut (for messages). */
export function short(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

/** Whether `v` is a plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A readable one-line description of a request (fast-check prints it for a counterexample). */
export function describeRequest(req: FuzzRequest): string {
  const headers = req.headers.map(([n, v]) => `${n}: ${JSON.stringify(short(v, 80))}`).join(', ');
  const body = req.body ? ` body(${req.body.byteLength} B${req.chunked ? ', chunked' : ''})=${JSON.stringify(latin1(req.body))}` : '';
  return `[${req.kind}] ${req.method} ${JSON.stringify(short(req.target, 200))} {${headers}}${body}`;
}

/** `req`, printed by fast-check with {@link describeRequest}. */
export function withToString(req: FuzzRequest): FuzzRequest {
  Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(req), enumerable: false });
  return req;
}
