/**
 * Per-key state is bounded by bytes, not only by count: every per-key and per-session store
 * is keyed by a fixed-size digest of the key, never the key, so distinct long keys cost a fixed amount each; and
 * `POST /__mock/reset` frees every per-key structure, memos included. 2,000 keys in `npm test`, 6,000 in
 * `npm run test:load` (`support/load-layer.ts`), each size with its own bounds. The server runs in its own process
 * (test/support/instrumented-server.ts), with the `mockrouter` command's heap limits, so its heap after a forced GC
 * and its resident memory can be read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstrumented, type InstrumentedServer } from './support/instrumented.js';
import { LOAD_TAG, MEMORY_KEYS, loadSize } from './support/load-layer.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const FREE_TTS = `${TTS}:free`;
/** Key length, characters: about what the probe used (15 KB bearer keys). */
const KEY_CHARS = 15 * 1024;
/** Distinct keys measured: 2,000 in `npm test`, 6,000 in `npm run test:load` ({@link MEMORY_KEYS}). */
const KEYS = MEMORY_KEYS;
const MiB = 1024 * 1024;
/**
 * Bounds on what the keys may add, MiB: to the heap after GC, to RSS, and to the heap once a reset has freed them.
 * Keyed by the keys themselves, each key would keep about 16 KB: 31 MiB for 2,000 keys, 94 MiB for 6,000. Measured
 * on Node.js 20, 22 and 24: 2,000 keys add 4.1 to 4.4 MiB of heap, 4.5 to 14 MiB of RSS, 0.8 to 1.1 MiB after the
 * reset; 6,000 keys (Node.js 20 and 24) 9.5 to 9.6 MiB, 13 to 30 MiB, 2.6 to 2.7 MiB.
 */
const BOUNDS_MIB = loadSize({ heap: 8, rss: 24, afterReset: 2 }, { heap: 16, rss: 40, afterReset: 4 });
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

describe('distinct long keys', { tags: [LOAD_TAG] }, () => {
  let server: InstrumentedServer;
  beforeAll(async () => {
    // With the defaults, as `mockrouter` runs (its young generation capped): the goal is the command's resident
    // memory. The journal (1000 entries) and the speech calls' generation records grow with it, a few MiB.
    server = await startInstrumented({}, { cli: true });
  });
  afterAll(() => server?.close());

  it(`cost a fixed amount each: ${KEYS} keys of 15 KB grow the heap by less than ${BOUNDS_MIB.heap} MiB and RSS by less than ${BOUNDS_MIB.rss} MiB, and a reset frees it`, async () => {
    expect(await speakAll(server.baseUrl, 0, WARM_UP_KEYS)).toEqual({ 200: WARM_UP_KEYS });
    const before = await server.stats({ gc: true });
    expect(before.gcExposed).toBe(true);
    expect(await speakAll(server.baseUrl, WARM_UP_KEYS, WARM_UP_KEYS + KEYS)).toEqual({ 200: KEYS });
    const after = await server.stats({ gc: true });
    const grown = after.heapUsed - before.heapUsed;
    // Keyed by the keys themselves, each key kept about 16 KB (about 94 MiB for 6,000); by digest, about 1.1 KB.
    expect(grown).toBeLessThan(BOUNDS_MIB.heap * MiB);
    expect(after.rss - before.rss).toBeLessThan(BOUNDS_MIB.rss * MiB);
    const reset = await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    expect(reset.ok).toBe(true);
    // Every per-key structure is freed, the memo of key digests included: the heap is back where it was, but for the
    // speech calls' generation records, which a reset keeps (one of about 250 bytes a key).
    const cleared = await server.stats({ gc: true });
    console.log(
      `${KEYS} distinct keys: heap after GC +${(grown / MiB).toFixed(1)} MiB, RSS +${((after.rss - before.rss) / MiB).toFixed(1)} MiB, ` +
        `after the reset +${((cleared.heapUsed - before.heapUsed) / MiB).toFixed(1)} MiB`,
    );
    expect(cleared.heapUsed).toBeLessThan(before.heapUsed + BOUNDS_MIB.afterReset * MiB);
  }, 120_000);
});
