/**
 * Which requests the express middleware answers, and which it passes on to the app (`next()`).
 *
 * @module
 */
import { API_PREFIX } from '../core/http/routes.js';
import { splitTarget } from '../core/http/request.js';

/**
 * Whether the middleware answers request target `url` (relative to the middleware's mount path, query included):
 * its path is the gateway's API prefix `/api/v1` (the index) or under it (`/api/v1/...`, every operation, and the
 * gateway's 404 envelope for a path it does not serve, as the real gateway answers), whatever the method (CORS
 * preflights and 405s included). Every other path (`/`, `/health`, `/api/v2`, `/api/v1x`) is the app's.
 */
export function servesPath(url: string): boolean {
  const { path } = splitTarget(url);
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}
