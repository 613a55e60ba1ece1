/**
 * Prompt collection of dead `ArrayBuffer`s in the standalone server's process: when the memory held by
 * `ArrayBuffer`s (`process.memoryUsage().arrayBuffers`: audio bodies, request and response buffers) has grown
 * {@link BUFFER_GARBAGE_BYTES} past its lowest reading since the last full collection, the collector asks V8 for a
 * full garbage collection. Started by `src/cli/serve.ts` once the server listens; a library user's process is left alone
 * (only the CLI owns its process, as with `src/cli/heap-limits.ts`).
 *
 * Why: a finished speech render enters the audio cache and, by the time the cache evicts it, lives in V8's old
 * generation, where only a full (mark-compact) collection frees it. V8 starts one for off-heap memory only after
 * about 64 MiB of new `ArrayBuffer` memory since the last one (`kExternalAllocationSoftLimit`), so the dead bodies
 * piled up to 64 MiB, and glibc's allocator keeps most of such a peak resident after freeing it (it serves these
 * buffers from its heap, not from `mmap`, once Node's start-up has freed a larger block, and returns little of that
 * heap). Collecting after 8 MiB keeps the pile, and the resident peak, far lower: the memory section of
 * `npm run bench` measures it, and `bench/README.md` gives the figures and the thresholds tried.
 *
 * Cost: one `process.memoryUsage()` call per {@link CHECK_INTERVAL_MS}, and one full collection per 8 MiB of
 * buffers that died old (a pause of the kind V8 makes itself, only sooner; none when idle).
 *
 * How: `gc()` exists only with `--expose-gc`. Setting that flag at run time (`v8.setFlagsFromString`) exposes
 * `gc` in contexts created afterwards, not in the running one; {@link startBufferCollector} takes it from a new
 * `node:vm` context and turns the flag off again, so neither the process's global scope nor a later context or
 * worker gets a `gc`.
 *
 * @module
 */
import { exposedGc } from '../node-platform/exposed-gc.js';

/** `ArrayBuffer` growth past the lowest reading since the last collection that starts a full collection, bytes. */
export const BUFFER_GARBAGE_BYTES = 8 * 1024 * 1024;

/** How often the collector reads `process.memoryUsage().arrayBuffers`, ms. */
export const CHECK_INTERVAL_MS = 100;


/** A running collector. */
export interface BufferCollector {
  /** Full collections it has started so far. */
  readonly collections: number;
  /** Stops reading and collecting. Idempotent. */
  stop(): void;
}

/**
 * Starts the collector: every {@link CHECK_INTERVAL_MS} it reads the process's `ArrayBuffer` memory and, when that
 * is {@link BUFFER_GARBAGE_BYTES} above the lowest reading since its last collection, starts a full collection
 * (one at a time). Its timer does not keep the process alive.
 *
 * @param options.garbageBytes the growth that starts a collection, bytes (default {@link BUFFER_GARBAGE_BYTES}).
 * @param options.intervalMs how often to read, ms (default {@link CHECK_INTERVAL_MS}).
 * @returns the collector, or `undefined` when this runtime gives no `gc()` (the process then keeps V8's own timing).
 */
export function startBufferCollector(options: { garbageBytes?: number; intervalMs?: number } = {}): BufferCollector | undefined {
  const garbageBytes = options.garbageBytes ?? BUFFER_GARBAGE_BYTES;
  const gc = exposedGc();
  if (!gc) return undefined;
  let floor = process.memoryUsage().arrayBuffers;
  let collecting = false;
  let collections = 0;
  const timer = setInterval(() => {
    const held = process.memoryUsage().arrayBuffers;
    floor = Math.min(floor, held);
    if (collecting || held - floor < garbageBytes) return;
    collecting = true;
    collections++;
    // Through Promise.resolve(): should a `gc()` return no promise (or throw), this still settles.
    Promise.resolve()
      .then(() => gc({ type: 'major', execution: 'async' }))
      .then(
        () => {
          collecting = false;
          floor = process.memoryUsage().arrayBuffers;
        },
        () => {
          collecting = false;
        },
      );
  }, options.intervalMs ?? CHECK_INTERVAL_MS);
  timer.unref();
  return {
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}
