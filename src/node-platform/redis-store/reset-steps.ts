/**
 * What a reset or a change of the default scenario of the Redis store does besides its script (`mrReset`,
 * `mrSetScenario` of `control-scripts.ts`): the clock to drop when it is not one a replica writes, the indexes of
 * epochs it cannot name marked stale (a replaced control key), and the per-key state of old epochs deleted, a chunk
 * per script call.
 *
 * @module
 */
import type { Redis } from 'ioredis';
import { storedClockProblem } from '../../core/store/shared-control.js';
import type { StoreKeys } from './key-names.js';
import type { ScriptCommands } from './scripts.js';

/** Members of an old epoch's index deleted per script call after a reset (each with its one or two keys). */
const DRAIN_CHUNK = 500;
/** Keys looked at per `SCAN` call when a reset looks for indexes of epochs it cannot name (a replaced control key). */
const SCAN_COUNT = 1000;

/** `text` as a `SCAN MATCH` pattern that matches it literally. */
const literalPattern = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * Deletes the per-key state of old epochs, a chunk per call until none is left (several replicas may share the
 * work). A failure leaves the rest to the next reset: the reset itself is done.
 */
export async function drainStale(client: Redis & ScriptCommands, keys: StoreKeys): Promise<void> {
  try {
    while (Number(await client.mrDrainStale(keys.stale, keys.prefix, DRAIN_CHUNK)) > 0);
  } catch {
    // the store went away meanwhile: what is left stays in the stale set (and expires meanwhile)
  }
}

/**
 * The stored clock's text when it is not one a replica writes (`storedClockProblem`), else `''`: what a reset
 * drops. Nothing to drop when the control key is no hash (the reset replaces it whole).
 */
export async function invalidClock(client: Redis, keys: StoreKeys): Promise<string> {
  if ((await client.type(keys.control)) !== 'hash') return '';
  const text = await client.hget(keys.control, 'clock');
  return text !== null && storedClockProblem(text) !== undefined ? text : '';
}

/**
 * After a reset replaced a control key of another type (its epochs unknown): every index of this prefix but the
 * new epochs' goes to the stale set, found with `SCAN` (`SCAN_COUNT` keys a call, never blocking the server).
 */
export async function markUnnamedEpochs(client: Redis, keys: StoreKeys, epoch: string, counters: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', `${literalPattern(keys.prefix)}*@*`, 'COUNT', SCAN_COUNT);
    cursor = next;
    const stale = found.flatMap((key) => {
      const entry = key.slice(keys.prefix.length);
      const match = /^(windows|ledgers|rules)@(.*)$/s.exec(entry);
      return match && match[2] !== (match[1] === 'rules' ? counters : epoch) ? [entry] : [];
    });
    if (stale.length > 0) await client.sadd(keys.stale, ...stale);
  } while (cursor !== '0');
}
