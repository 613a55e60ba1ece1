/**
 * A cap on V8's young generation in the standalone server's process, set when this module is imported: `src/cli/serve.ts`
 * imports it first. A library user's process is left alone: only the CLI owns its process.
 *
 * Why: under load V8 grows the young generation (two semi-spaces) up to two 16 MiB semi-spaces by default, and
 * the grown space stays resident. `--max-semi-space-size` would bound it, but V8 reads that flag only when the
 * heap is set up (too late from JavaScript; it would take `NODE_OPTIONS` or a re-exec). V8 reads
 * `--semi-space-growth-factor` each time it grows the space, so setting it to 1 once the space has reached
 * {@link MAX_YOUNG_GENERATION_BYTES} stops the growth there.
 *
 * @module
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Young generation (both semi-spaces) past which it stops growing, bytes: 8 MiB, where a CLI server already is at
 * its ready line (two 4 MiB semi-spaces), against 32 MiB by default under load. The memory section of
 * `npm run bench` (100,000 mixed requests) measures the difference in RSS after the load (bench/README.md).
 */
export const MAX_YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

/** The young generation's current size (V8's `new_space`), bytes; 0 if V8 does not report it. */
function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** Stops the growth of the young generation once it is at {@link MAX_YOUNG_GENERATION_BYTES}. */
function capWhenReached(observer?: PerformanceObserver): void {
  if (youngGenerationBytes() < MAX_YOUNG_GENERATION_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  observer?.disconnect();
}

if (youngGenerationBytes() >= MAX_YOUNG_GENERATION_BYTES) capWhenReached();
else {
  // Checked after each garbage collection, the only time the space grows; then no longer observed.
  const observer = new PerformanceObserver(() => capWhenReached(observer));
  observer.observe({ entryTypes: ['gc'] });
}
