/**
 * The exchanges a server is answering, and a wait for them to end: how the recorder stops gracefully
 * (`proxy.ts`'s `close`).
 *
 * @module
 */
import type { ServerResponse } from 'node:http';

/** Longest wait, ms, for the answers under way when the recorder stops; past it they are cut (and not recorded). */
export const STOP_DRAIN_MS = 10_000;

/** Counts the responses not yet closed, and tells whoever waits each time one closes. */
export class InFlight {
  #count = 0;
  readonly #listeners = new Set<() => void>();

  /** Answers under way. */
  get count(): number {
    return this.#count;
  }

  /** Counts `response` until it closes (ended, cut or its connection gone). */
  track(response: ServerResponse): void {
    this.#count++;
    response.once('close', () => {
      this.#count--;
      for (const listener of this.#listeners) listener();
    });
  }

  /**
   * Resolves `true` once no answer is under way, or `false` after `ms` with some still going. `onEach` runs each time
   * one ends before then (the server closes the connections it left idle).
   */
  drained(ms: number, onEach: () => void = () => undefined): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (drained: boolean) => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(drained);
      };
      const listener = () => {
        onEach();
        if (this.#count === 0) done(true);
      };
      const timer = setTimeout(() => done(false), ms);
      this.#listeners.add(listener);
    });
  }
}
