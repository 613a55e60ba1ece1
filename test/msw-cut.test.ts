/**
 * The msw adapter's streamed bodies (`src/msw/convert.ts`), without sockets: a body that fails (a scenario's
 * `audio.truncate`) gives every reader every byte before the failure, the response's clones included, however the
 * readers' pace differs; msw clones each response it logs and reads the clone at once.
 */
import { describe, expect, it } from 'vitest';
import { StreamCut, type CoreResponse } from '../src/core/base/types.js';
import { toHttpResponse } from '../src/msw/convert.js';

const CHUNKS = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5]), new Uint8Array([6])];
const BYTES = 6;

/** A body of {@link CHUNKS} that is then cut (throws {@link StreamCut}), counting how often it was read and stopped. */
function cutBody() {
  const seen = { reads: 0, returned: 0 };
  const body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      let index = 0;
      return {
        next() {
          seen.reads++;
          if (index < CHUNKS.length) return Promise.resolve({ value: CHUNKS[index++]!, done: false });
          return Promise.reject(new StreamCut(`audio cut after ${BYTES} bytes`));
        },
        return() {
          seen.returned++;
          return Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
  return { body, seen };
}

function response(body: AsyncIterable<Uint8Array>, onDone: () => void = () => {}): CoreResponse {
  return { status: 200, headers: { 'Content-Type': 'audio/pcm' }, body, onDone };
}

/** One macrotask: a reader slower than the one it shares the body with. */
const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads `res`'s body chunk by chunk (one macrotask before each read when `slow`): the bytes, the chunks' sizes, and how it ended. */
async function read(res: Response, slow = false): Promise<{ bytes: number; sizes: number[]; error?: string }> {
  const reader = res.body!.getReader();
  const sizes: number[] = [];
  try {
    for (;;) {
      if (slow) await macrotask();
      const { done, value } = await reader.read();
      if (done) return { bytes: sizes.reduce((a, b) => a + b, 0), sizes };
      sizes.push(value.byteLength);
    }
  } catch (error) {
    return { bytes: sizes.reduce((a, b) => a + b, 0), sizes, error: (error as Error).name };
  }
}

describe('msw adapter: a body cut mid-stream', () => {
  it('gives the response every byte, then fails its read, while a clone read at once has long failed (as msw logs it)', async () => {
    const { body, seen } = cutBody();
    let done = 0;
    const res = await toHttpResponse(response(body, () => done++));
    const logged = res.clone();
    const clone = await read(logged);
    expect(clone).toEqual({ bytes: BYTES, sizes: [3, 2, 1], error: 'StreamCut' });
    const original = await read(res, true);
    expect(original).toEqual({ bytes: BYTES, sizes: [3, 2, 1], error: 'StreamCut' });
    // The body was read once for both: three chunks and the read that failed; `onDone` ran once.
    expect(seen.reads).toBe(CHUNKS.length + 1);
    expect(done).toBe(1);
  });

  it('gives a clone made after the body was partly read by another clone the same bytes', async () => {
    const { body } = cutBody();
    const res = await toHttpResponse(response(body));
    const first = res.clone();
    const firstReader = first.body!.getReader();
    await firstReader.read();
    const second = res.clone();
    firstReader.releaseLock();
    const [a, b, c] = await Promise.all([read(first), read(second, true), read(res, true)]);
    expect(a).toEqual({ bytes: 3, sizes: [2, 1], error: 'StreamCut' });
    expect(b).toEqual({ bytes: BYTES, sizes: [3, 2, 1], error: 'StreamCut' });
    expect(c).toEqual({ bytes: BYTES, sizes: [3, 2, 1], error: 'StreamCut' });
  });

  it('refuses to clone a response whose body is being read, as Response.clone does', async () => {
    const res = await toHttpResponse(response(cutBody().body));
    res.body!.getReader();
    expect(() => res.clone()).toThrow(TypeError);
  });

  it('stops the body once the response and all its clones are cancelled, and not before', async () => {
    const { body, seen } = cutBody();
    let done = 0;
    const res = await toHttpResponse(response(body, () => done++));
    const clone = res.clone();
    // A tee's branch settles its cancel only once both are cancelled: do not wait for it.
    void res.body!.cancel();
    await macrotask();
    expect(seen.returned).toBe(0);
    await clone.body!.cancel();
    expect(seen.returned).toBe(1);
    expect(done).toBe(1);
  });
});
