/**
 * The index answered at `GET /` and `GET /api/v1` (in both modes; in-process only where the handlers see the
 * request): what this simulator serves, so a developer who opens the base URL in a browser or curls it sees
 * where to go instead of a bare 404.
 *
 * @module
 */
import { ADMIN_ENDPOINTS, type AdminExposure } from '../admin/admin-api.js';
import { API_PREFIX, ROUTES } from './routes.js';
import type { CoreResponse } from '../types.js';

/** The dashboard page, which the standalone server serves beside the admin API (`src/server/ui.ts`). */
const DASHBOARD_ENDPOINT = 'GET /__mock/ui';

/** Paths that answer the index (with or without a trailing slash). */
const INDEX_PATHS = new Set(['/', API_PREFIX, `${API_PREFIX}/`]);

/** Whether a `method` request on raw `path` is one for the index. */
export function isIndexRequest(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && INDEX_PATHS.has(path);
}

/**
 * The index as JSON: `{ name, description, api, operations: [{ operation_id, method, path }], admin: [...] }`,
 * where `admin` lists the admin endpoints served (`METHOD /__mock/...`): all of them and the dashboard, only the health check
 * (`--no-admin`), or none (in-process).
 */
export function apiIndex(admin: AdminExposure): CoreResponse {
  const body = {
    name: 'mockrouter',
    description: 'A local simulator of the OpenRouter API. Send requests with any bearer key (or one from --keys).',
    api: API_PREFIX,
    operations: ROUTES.map((route) => ({ operation_id: route.operationId, method: route.method, path: `${API_PREFIX}${route.path}` })),
    admin: admin === 'on' ? [...ADMIN_ENDPOINTS, DASHBOARD_ENDPOINT] : admin === 'health' ? ADMIN_ENDPOINTS.filter((endpoint) => endpoint.endsWith('/health')) : [],
  };
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body, null, 2) };
}
