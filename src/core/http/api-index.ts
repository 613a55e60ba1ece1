/**
 * The index answered at `GET /` and `GET /api/v1` (in every mode; in-process only where the handlers or the
 * middleware see the request): what this simulator serves, so a developer who opens the base URL in a browser or curls it sees
 * where to go instead of a bare 404.
 *
 * @module
 */
import { API_PREFIX, ROUTES } from './routes.js';
import type { CoreResponse } from '../base/types.js';

/** Paths that answer the index (with or without a trailing slash). */
const INDEX_PATHS = new Set(['/', API_PREFIX, `${API_PREFIX}/`]);

/** Whether a `method` request on raw `path` is one for the index. */
export function isIndexRequest(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && INDEX_PATHS.has(path);
}

/**
 * The index as JSON: `{ name, description, api, operations: [{ operation_id, method, path }], admin: [...] }`.
 *
 * @param admin the admin endpoints served beside the API (`METHOD /__mock/...`), in the order given: none
 *   in-process (the default); the standalone server passes its own (`withAdmin` in `src/server/admin.ts`: all of
 *   them and the dashboard, or only the health check under `--no-admin`).
 */
export function apiIndex(admin: readonly string[] = []): CoreResponse {
  const body = {
    name: 'mockrouter',
    description: 'A local simulator of the OpenRouter API. Send requests with any bearer key (or one from --keys).',
    api: API_PREFIX,
    operations: ROUTES.map((route) => ({ operation_id: route.operationId, method: route.method, path: `${API_PREFIX}${route.path}` })),
    admin,
  };
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body, null, 2) };
}
