/**
 * V8's `gc()` without starting Node.js with `--expose-gc`: the flag is set for a moment, `gc` taken from a fresh
 * context, and the flag cleared again (`node:v8` `setFlagsFromString`, `node:vm`). Used by the CLI's buffer collector
 * (`src/cli/buffer-collector.ts`) and by the words threads (`words-worker.ts`), each to free WebAssembly and
 * `ArrayBuffer` memory that V8 would otherwise let pile up for a while.
 *
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc()` with options; the asynchronous form resolves once the collection has run. */
export type GcFunction = (options: { type: 'major'; execution: 'async' }) => Promise<void>;

/**
 * This thread's `gc()`.
 *
 * @returns the function, or `undefined` where the runtime gives none (never throws).
 */
export function exposedGc(): GcFunction | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? (gc as GcFunction) : undefined;
  } catch {
    return undefined;
  }
}
