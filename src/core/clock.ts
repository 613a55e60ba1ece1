/**
 * The simulator's clock: one function that every timestamp in the core reads.
 *
 * @module
 */

/** Returns the current time in milliseconds since the Unix epoch. */
export type Now = () => number;

/** The real clock (`Date.now`). */
export const systemNow: Now = () => Date.now();

/** Formats epoch milliseconds as ISO 8601 with an explicit UTC offset, e.g. `2026-11-21T11:18:40.123+00:00`. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}
