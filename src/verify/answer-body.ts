/**
 * What `mockrouter verify` accepts of an answer's body, and reading one within it: at most
 * {@link MAX_ANSWER_BYTES} decoded bytes (the recorder's limit for one answer, so what `verify` compares is what
 * `mockrouter record` would keep), JSON nested at most {@link MAX_ANSWER_DEPTH} levels (the limit of the files
 * `--fixtures` reads and the recorder writes) and holding at most {@link MAX_ANSWER_ITEMS} elements and fields (so
 * that parsing it stays small). An answer past any is not compared: the check stops there (`docs/recording.md`,
 * "Know the day it drifts").
 *
 * @module
 */
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { jsonExtentOf } from '../core/base/json-depth.js';
import { DEFAULT_MAX_RECORD_BYTES } from '../recorder/index.js';
import { VerifyError } from './errors.js';

/** Most bytes of one answer's body, counted after its `Content-Encoding` is decoded: 32 MiB, as `mockrouter record` keeps. */
export const MAX_ANSWER_BYTES = DEFAULT_MAX_RECORD_BYTES;

/** Deepest nesting of arrays and objects in one answer's JSON body: 64, as in every file `--fixtures` reads. */
export const MAX_ANSWER_DEPTH = FOLDER_LIMITS.depth;

/**
 * Most array elements and object fields in one answer's JSON body (an empty array or object counts one): 250,000,
 * several times a list of every model of the gateway. Counted before parsing, because 32 MiB of `[{},{},...]` is
 * millions of objects once parsed.
 */
export const MAX_ANSWER_ITEMS = 250_000;

/** `33554432` as `32 MiB`; other counts as bytes. */
export function bytesText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Reads `stream` (a body already decoded from its `Content-Encoding`, as `fetch` gives it) whole as UTF-8 text,
 * counting its bytes as they come, and stops (cancelling the stream) as soon as they pass `maxBytes`. Each chunk is
 * decoded as it comes, so the bytes are not kept beside the text.
 *
 * @param keepText `false` to read and count the body without decoding it (a body that is not compared); then the
 *   text is `''`.
 * @returns the text, or `undefined` when there were more than `maxBytes`.
 * @throws what reading the stream throws (a broken connection, a body its `Content-Encoding` does not decode, an
 *   abort).
 */
export async function readTextWithin(stream: ReadableStream<Uint8Array> | null, maxBytes: number, keepText = true): Promise<string | undefined> {
  if (stream === null) return '';
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      pieces.length = 0;
      await reader.cancel().catch(() => {});
      return undefined;
    }
    if (keepText) pieces.push(decoder.decode(value, { stream: true }));
  }
  if (keepText) pieces.push(decoder.decode());
  return pieces.join('');
}

/**
 * A body's text as JSON: `undefined` when it is empty or no JSON. When the text opens with `[` or `{` (else it is
 * no JSON container), its depth and its elements and fields are counted before it is parsed (`jsonExtentOf`: one
 * pass, without recursion).
 *
 * @param subject what the body is, for the message: `the upstream's 200 answer to GET https://.../models`.
 * @throws {VerifyError} naming `subject`: `E_VERIFY_ANSWER_TOO_DEEP` when arrays and objects nest deeper than
 *   {@link MAX_ANSWER_DEPTH}; `E_VERIFY_ANSWER_TOO_BIG` when they hold more than {@link MAX_ANSWER_ITEMS} elements
 *   and fields.
 */
export function jsonOfText(text: string, subject: string): unknown {
  if (text === '') return undefined;
  if (/^\s*[[{]/.test(text)) {
    const extent = jsonExtentOf(text, { depth: MAX_ANSWER_DEPTH, items: MAX_ANSWER_ITEMS });
    if (extent.depth > MAX_ANSWER_DEPTH) {
      throw new VerifyError('E_VERIFY_ANSWER_TOO_DEEP', `${subject} nests arrays and objects deeper than ${MAX_ANSWER_DEPTH} levels: not compared`);
    }
    if (extent.items > MAX_ANSWER_ITEMS) {
      throw new VerifyError('E_VERIFY_ANSWER_TOO_BIG', `${subject} holds more than ${MAX_ANSWER_ITEMS} array elements and object fields: not compared`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
