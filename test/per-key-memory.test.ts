/**
 * Per-key state is bounded by bytes, not only by count: every per-key and per-session store
 * is keyed by a fixed-size digest of the key, never the key, so distinct long keys cost a fixed amount each; and
 * `POST /__mock/reset` frees every per-key structure, memos included. The server runs in its own process
 * (test/support/instrumented-server.ts), with the `mockrouter` command's heap limits, so its heap after a forced GC
 * and its resident memory can be read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstrumented, type InstrumentedServer } from './support/instrumented.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const FREE_TTS = `${TTS}:free`;
/** Key length, characters: about what the probe used (15 KB bearer keys). */
const KEY_CHARS = 15 * 1024;
const KEYS = 6000;
const MiB = 1024 * 1024;
const WARM_UP_KEYS = 300;
/** Concurrent clients. */
const CLIENTS = 16;

/** A distinct key of {@link KEY_CHARS} characters for `i`. */
function longKey(i: number): string {
  const tag = `sk-${i.toString(36)}-`;
  return tag + 'k'.repeat(KEY_CHARS - tag.length);
}

/** One `:free` speech call with key `i`, read to its end; its status. */
async function speak(baseUrl: string, i: number): Promise<number> {
  const response = await postSpeech(baseUrl, { model: FREE_TTS, input: 'a', voice: 'alloy' }, { Authorization: `Bearer ${longKey(i)}` });
  await response.arrayBuffer();
  return response.status;
}

/** Keys `from` to `to - 1`, {@link CLIENTS} at a time; the statuses seen, counted. */
async function speakAll(baseUrl: string, from: number, to: number): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  let next = from;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < to) {
        const status = await speak(baseUrl, next++);
        counts[status] = (counts[status] ?? 0) + 1;
      }
    }),
  );
  return counts;
}

describe('distinct long keys', () => {
  let server: InstrumentedServer;
  beforeAll(async () => {
    // With the defaults, as `mockrouter` runs (its young generation capped): the goal is the command's resident
    // memory. The journal (1000 entries) and the speech calls' generation records grow with it, a few MiB.
    server = await startInstrumented({}, { cli: true });
  });
  afterAll(() => server?.close());

  it(`cost a fixed amount each: ${KEYS} keys of 15 KB grow the heap by less than 16 MiB and RSS by less than 40 MiB, and a reset frees it`, async () => {
    expect(await speakAll(server.baseUrl, 0, WARM_UP_KEYS)).toEqual({ 200: WARM_UP_KEYS });
    const before = await server.stats({ gc: true });
    expect(before.gcExposed).toBe(true);
    expect(await speakAll(server.baseUrl, WARM_UP_KEYS, WARM_UP_KEYS + KEYS)).toEqual({ 200: KEYS });
    const after = await server.stats({ gc: true });
    const grown = after.heapUsed - before.heapUsed;
    // Keyed by the keys themselves, each key kept about 16 KB (about 94 MiB for 6,000); by digest, about 1.1 KB.
    expect(grown).toBeLessThan(16 * MiB);
    expect(after.rss - before.rss).toBeLessThan(40 * MiB);
    const reset = await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    expect(reset.ok).toBe(true);
    // Every per-key structure is freed, the memo of key digests included: the heap is back where it was, but for the
    // speech calls' generation records, which a reset keeps (6,000 of about 250 bytes).
    const cleared = await server.stats({ gc: true });
    expect(cleared.heapUsed).toBeLessThan(before.heapUsed + 4 * MiB);
  }, 120_000);
});
