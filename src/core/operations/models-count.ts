/**
 * `GET /api/v1/models/count`: the gateway's OpenAPI operation `listModelsCount` (SDK `models.count`;
 * `docs/behaviour.md`, "Discovery reads").
 *
 * @module
 */
import { listAnswer } from '../catalog/list-answers.js';
import { parseModelQuery, selectModels } from '../catalog/model-query.js';
import { queryParams } from '../http/request.js';
import type { CoreResponse } from '../base/types.js';
import type { OperationCall } from './call.js';
import { modelFactsOf } from './models.js';

/**
 * Counts the models `GET /models` would list for the same `output_modalities` (default `text`; the only
 * parameter this operation takes, the others are ignored).
 *
 * @returns 200 `{"data": {"count": <int>}}`.
 * @throws {GatewayError} 400 `output_modalities: <problem>` for a malformed value.
 */
export function listModelsCount({ ctx, request }: OperationCall): CoreResponse {
  const body = listAnswer(ctx.catalog, 'models-count', request.query, () => {
    const query = parseModelQuery(queryParams(request.query), ['output_modalities']);
    const count = selectModels(ctx.catalog.models(), query, modelFactsOf(ctx), ctx.clock.now() / 1000).total;
    return JSON.stringify({ data: { count } });
  });
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body };
}
