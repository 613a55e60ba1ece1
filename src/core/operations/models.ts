/**
 * `GET /api/v1/models`: the gateway's OpenAPI operation `getModels` (SDK `models.list`, and the `openai` SDK's
 * `models.list()`; `docs/behaviour.md`, "Discovery reads").
 *
 * @module
 */
import { bestPerformance } from '../catalog/derive-endpoints.js';
import { listAnswer } from '../catalog/list-answers.js';
import { parseModelQuery, selectModels, type ModelFacts } from '../catalog/model-query.js';
import type { GatewayContext } from './context.js';
import type { ModelRecord } from '../formats/fixture-schema.js';
import { queryParams } from '../http/request.js';
import { API_PREFIX } from '../http/routes.js';
import type { CoreResponse } from '../base/types.js';
import type { OperationCall } from './call.js';

/** The providers and (on demand) recent performance of a catalog record, for filters and sorts. */
export function modelFactsOf(ctx: GatewayContext): (record: ModelRecord) => ModelFacts {
  return (record) => {
    const providers = ctx.catalog.providers(record.id);
    return { providers, performance: () => bestPerformance(ctx.catalog.resolve(record.id)!, providers, ctx.seed) };
  };
}

/** The path and query of the next page: the request's query with `offset` (and `limit`) set. */
function nextPage(params: URLSearchParams, offset: number, limit: number): string {
  const next = new URLSearchParams(params);
  next.set('offset', String(offset));
  next.set('limit', String(limit));
  return `${API_PREFIX}/models?${next.toString()}`;
}

/**
 * Lists the catalog's base models (no variants, no aliases), filtered, sorted and paged by the query (see
 * `src/core/catalog/model-query.ts`). `output_modalities` defaults to `text`, so speech models are listed only
 * with `output_modalities=speech` (or `all`), each with its `supported_voices`.
 *
 * @returns 200 `{"data": Model[], "links": {"next": <path and query of the next page> | null}, "total_count":
 *   <models matched over all pages>}` (operation `getModels`, `ModelsListResponse`); each element is the record
 *   `getModel` returns for its id.
 * @throws {GatewayError} 400 `<parameter>: <problem>` for a malformed query value.
 */
export function getModels({ ctx, request }: OperationCall): CoreResponse {
  const body = listAnswer(ctx.catalog, 'models', request.query, () => {
    const params = queryParams(request.query);
    const page = selectModels(ctx.catalog.models(), parseModelQuery(params), modelFactsOf(ctx), ctx.clock.now() / 1000);
    const next = page.nextOffset === null || page.limit === null ? null : nextPage(params, page.nextOffset, page.limit);
    return JSON.stringify({ data: page.data, links: { next }, total_count: page.total });
  });
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body };
}
