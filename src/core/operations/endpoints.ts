/**
 * `GET /api/v1/models/{author}/{slug}/endpoints`: the gateway's OpenAPI operation `listEndpoints` (SDK
 * `endpoints.list`; `docs/behaviour.md`, "Discovery reads"). Every model record's `links.details` names this path.
 *
 * @module
 */
import { modelEndpoints } from '../catalog/derive-endpoints.js';
import { GatewayError } from '../base/error-envelope.js';
import type { CoreResponse } from '../base/types.js';
import type { OperationCall } from './call.js';
import { modelIdOfPath } from './model.js';

/**
 * Lists the endpoints of one model: one per provider that serves it in the catalog (see
 * `src/core/catalog/derive-endpoints.ts`). `author` and `slug` are percent-decoded; variants and aliases resolve as in
 * the model lookup (`getModel`), and the endpoints then carry the variant's record (`:free` prices are zero).
 *
 * @returns 200 `{"data": {id, name, created, description, architecture, endpoints}}`.
 * @throws {GatewayError} 404 `Model <id> not found` for an unknown model; 400 for broken percent-encoding.
 */
export function listEndpoints({ ctx, params }: OperationCall): CoreResponse {
  const id = modelIdOfPath(params);
  const model = ctx.catalog.resolve(id);
  if (!model) throw new GatewayError(404, { message: `Model ${id} not found` });
  const data = modelEndpoints(model, ctx.catalog.providers(model.baseId), ctx.seed);
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data }) };
}
