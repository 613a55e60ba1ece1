/**
 * `GET /api/v1/models`: the gateway's OpenAPI operation `getModels` (SDK `models.list`, and the `openai` SDK's
 * `models.list()`; `docs/behaviour.md`, "Discovery reads").
 *
 * @module
 */
import { bestPerformance } from '../catalog/endpoints.js';
import { parseModelQuery, selectModels, type ModelFacts } from '../catalog/model-query.js';
import type { GatewayContext } from '../context.js';
import type { ModelRecord } from '../fixtures/schema.js';
import { queryParams } from '../request.js';
import type { CoreResponse } from '../types.js';
import type { OperationCall } from './call.js';

/** The providers and (on demand) recent performance of a catalog record, for filters and sorts. */
export function modelFactsOf(ctx: GatewayContext): (record: ModelRecord) => ModelFacts {
  return (record) => {
    const providers = ctx.catalog.providers(record.id);
    return { providers, performance: () => bestPerformance(ctx.catalog.resolve(record.id)!, providers, ctx.seed) };
  };
}

/**
 * Lists the catalog's base models (no variants, no aliases), filtered, sorted and paged by the query (see
 * `src/core/catalog/model-query.ts`). `output_modalities` defaults to `text`, so speech models are listed only
 * with `output_modalities=speech` (or `all`), each with its `supported_voices`.
 *
 * @returns 200 `{"data": Model[]}`, each element the record `getModel` returns for its id.
 * @throws {GatewayError} 400 `<parameter>: <problem>` for a malformed query value.
 */
export function getModels({ ctx, request }: OperationCall): CoreResponse {
  const query = parseModelQuery(queryParams(request.query));
  const data = selectModels(ctx.catalog.models(), query, modelFactsOf(ctx), ctx.clock.now() / 1000);
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data }) };
}
