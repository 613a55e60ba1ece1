/**
 * The gateway's routes under `/api/v1` (spec §4). Matching is done once here so both adapters route alike.
 *
 * @module
 */

/** The three operations the simulator answers. */
export type Operation = 'speech' | 'model' | 'generation';

/** Prefix every operation's path starts with (spec §9). */
export const API_PREFIX = '/api/v1';

/** A matched route. */
export type RouteMatch =
  | { operation: 'speech'; method: 'POST' }
  | { operation: 'model'; method: 'GET'; author: string; slug: string }
  | { operation: 'generation'; method: 'GET' };

/**
 * Matches a raw path (percent-encoded, no query).
 *
 * @returns the route, or `undefined` when the path is not one of the three operations.
 */
export function matchRoute(path: string): RouteMatch | undefined {
  if (!path.startsWith(API_PREFIX)) return undefined;
  let rest = path.slice(API_PREFIX.length);
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
  if (rest === '/audio/speech') return { operation: 'speech', method: 'POST' };
  if (rest === '/generation') return { operation: 'generation', method: 'GET' };
  if (rest.startsWith('/model/')) {
    const parts = rest.slice('/model/'.length).split('/');
    if (parts.length === 2 && parts[0] && parts[1]) {
      return { operation: 'model', method: 'GET', author: parts[0], slug: parts[1] };
    }
  }
  return undefined;
}
