/**
 * Letting other work run between the pieces of a long job (rendering and encoding speech): one macrotask, so
 * timers, I/O and other requests get their turn; a microtask would not give them one.
 *
 * @module
 */

type Schedule = (callback: () => void) => void;

/** Whether `fn` is a fake installed by `@sinonjs/fake-timers` (vitest's `vi.useFakeTimers()`): it carries `clock`. */
function isFake(fn: unknown): boolean {
  return typeof fn === 'function' && 'clock' in fn;
}

/** A `MessageChannel` message per callback: a macrotask fake timers do not replace; its port never holds a process open. */
function viaMessageChannel(): Schedule {
  const channel = new MessageChannel();
  const queue: (() => void)[] = [];
  channel.port1.onmessage = () => queue.shift()?.();
  (channel.port1 as { unref?: () => void }).unref?.();
  (channel.port2 as { unref?: () => void }).unref?.();
  return (callback) => {
    queue.push(callback);
    channel.port2.postMessage(undefined);
  };
}

/**
 * The host's way to run a callback after pending I/O: the real `setImmediate` (Node.js), else a `MessageChannel`
 * message (browsers, workers, or Node.js with `setImmediate` faked before this module loaded), else
 * `setTimeout(0)`. Captured when this module loads, so fake timers installed later cannot stall a render.
 */
const schedule: Schedule = (() => {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function' && !isFake(immediate)) return (callback) => void immediate.call(globalThis, callback);
  if (typeof MessageChannel === 'function') return viaMessageChannel();
  const timeout = globalThis.setTimeout;
  return (callback) => void timeout(callback, 0);
})();

/** Resolves after one macrotask: pending I/O, timers and other requests run first. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => schedule(resolve));
}
