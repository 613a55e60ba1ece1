/**
 * Where a request goes, for both adapters: the index (`GET /` and `GET /api/v1`), the admin API under `/__mock/`
 * (the standalone server's), or the gateway's API. The standalone server and the MSW handlers both answer through
 * this one function, so they route alike; only what they serve of the admin API differs.
 *
 * @module
 */
import { ADMIN_PREFIX, handleAdmin, isHealthPath, type AdminExposure } from './admin.js';
import { apiIndex, isIndexRequest } from './api-index.js';
import type { Gateway } from './gateway.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** Options of {@link frontDoor}. */
export interface FrontDoorOptions {
  /** How much of the admin API to serve. */
  admin: AdminExposure;
  /** When set, admin requests but health must carry it (see `handleAdmin`). */
  adminToken?: string | undefined;
}

/**
 * The function that answers every request of one adapter: the index, the admin API as `options.admin` allows, and
 * everything else through `gateway.handle` (journaled). Never throws.
 */
export function frontDoor(gateway: Gateway, options: FrontDoorOptions): (request: CoreRequest) => CoreResponse {
  const { admin, adminToken } = options;
  return (request) => {
    if (isIndexRequest(request.method, request.path)) return apiIndex(admin);
    if (admin !== 'off' && request.path.startsWith(ADMIN_PREFIX) && (admin === 'on' || isHealthPath(request.path))) {
      return handleAdmin(gateway, request, { token: adminToken });
    }
    return gateway.handle(request);
  };
}
