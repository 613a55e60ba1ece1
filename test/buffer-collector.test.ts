/**
 * The standalone server's collector of dead ArrayBuffers (src/cli/buffer-collector.ts): it starts a full
 * collection once buffer memory has grown past its threshold, not before, and leaves the global scope alone.
 * That the collection frees dead buffers is V8's part; how much it saves is measured by the memory section of
 * `npm run bench`, not here.
 */
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { type BufferCollector, startBufferCollector } from '../src/cli/buffer-collector.js';

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let collector: BufferCollector | undefined;
afterEach(() => collector?.stop());

/** Polls until `check()` or `ms` pass. */
async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await sleep(10);
}

describe('startBufferCollector', () => {
  it('collects once buffers grow past the threshold, then measures from the level after it', async () => {
    collector = startBufferCollector({ garbageBytes: 8 * MiB, intervalMs: 10 });
    expect(collector).toBeDefined();
    expect(collector!.collections).toBe(0);

    // 4 MiB more: under the threshold, nothing happens.
    const held: Uint8Array[] = Array.from({ length: 4 }, () => new Uint8Array(MiB).fill(1));
    await sleep(100);
    expect(collector!.collections).toBe(0);

    // 12 MiB more (kept alive, so no collection V8 makes meanwhile lowers the reading): past the threshold.
    held.push(...Array.from({ length: 12 }, () => new Uint8Array(MiB).fill(2)));
    await waitFor(() => collector!.collections > 0, 3000);
    expect(collector!.collections).toBe(1);

    // The level after the collection is the new floor: 4 MiB more is under the threshold again.
    await sleep(100);
    held.push(...Array.from({ length: 4 }, () => new Uint8Array(MiB).fill(3)));
    await sleep(100);
    expect(collector!.collections).toBe(1);
    // And 8 MiB past that new floor starts the next one (so the first has settled).
    held.push(...Array.from({ length: 8 }, () => new Uint8Array(MiB).fill(4)));
    await waitFor(() => collector!.collections > 1, 3000);
    expect(collector!.collections).toBe(2);
    expect(held).toHaveLength(28);
  });

  it('puts gc() neither in the global scope nor in contexts made later', () => {
    collector = startBufferCollector({ intervalMs: 1000 });
    expect(collector).toBeDefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('stops', async () => {
    collector = startBufferCollector({ garbageBytes: 1, intervalMs: 5 });
    collector!.stop();
    const garbage = new Uint8Array(4 * MiB).fill(3);
    await sleep(60);
    expect(collector!.collections).toBe(0);
    expect(garbage.byteLength).toBe(4 * MiB);
  });
});
