/**
 * Letting other work run between the pieces of a long job (rendering and encoding speech): one macrotask, so
 * timers, I/O and other requests get their turn; a microtask would not give them one.
 *
 * @module
 */

type Schedule = (callback: () => void) => void;

/**
 * The host's way to run a callback after pending I/O: `setImmediate` where there is one (Node.js), else a
 * `MessageChannel` message (browsers, workers), else `setTimeout(0)`. Captured when this module loads, so fake
 * timers installed later (vitest's `vi.useFakeTimers()`) cannot stall a render.
 */
const schedule: Schedule = (() => {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return (callback) => void immediate.call(globalThis, callback);
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    const queue: (() => void)[] = [];
    channel.port1.onmessage = () => queue.shift()?.();
    return (callback) => {
      queue.push(callback);
      channel.port2.postMessage(undefined);
    };
  }
  const timeout = globalThis.setTimeout;
  return (callback) => void timeout(callback, 0);
})();

/** Resolves after one macrotask: pending I/O, timers and other requests run first. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => schedule(resolve));
}
