/**
 * The index the standalone server answers at `GET /` and `GET /api/v1`: what this simulator serves, so a
 * developer who opens the base URL in a browser or curls it sees where to go instead of a bare 404.
 *
 * @module
 */
import { ADMIN_ENDPOINTS } from './admin.js';
import { API_PREFIX, ROUTES } from './routes.js';
import type { CoreResponse } from './types.js';

/** Paths that answer the index (with or without a trailing slash). */
const INDEX_PATHS = new Set(['/', API_PREFIX, `${API_PREFIX}/`]);

/** Whether a `method` request on raw `path` is one for the index. */
export function isIndexRequest(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && INDEX_PATHS.has(path);
}

/**
 * The index as JSON: `{ name, api, operations: [{ operation_id, method, path }], admin: [...] | null }`, where
 * `admin` lists every admin endpoint (`METHOD /__mock/...`) when the admin API is on, else only the health check.
 *
 * @param admin whether the admin API is served (`--no-admin` leaves only `GET /__mock/health`).
 */
export function apiIndex(admin: boolean): CoreResponse {
  const body = {
    name: 'mockrouter',
    description: 'A local simulator of the OpenRouter API. Send requests with any bearer key (or one from --keys).',
    api: API_PREFIX,
    operations: ROUTES.map((route) => ({ operation_id: route.operationId, method: route.method, path: `${API_PREFIX}${route.path}` })),
    admin: admin ? ADMIN_ENDPOINTS : ADMIN_ENDPOINTS.filter((endpoint) => endpoint.endsWith('/health')),
  };
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body, null, 2) };
}
