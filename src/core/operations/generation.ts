/**
 * `GET /api/v1/generation?id=`: the gateway's OpenAPI operation `getGeneration` (`docs/behaviour.md`,
 * "Generation lookup").
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import { queryParams, singleParam } from '../http/request.js';
import { andThen, type CoreResponse, type MaybePromise } from '../base/types.js';
import type { OperationCall } from './call.js';

/**
 * Looks up a generation record by `id` (query parameter, minimum length 1).
 *
 * @returns 200 `{"data": Generation}`.
 * @throws {GatewayError} 400 when `id` is missing or empty; 404 `Generation not found` for an unknown id or a
 *   record not ready yet (the real record appears a few hundred ms to about 2 s after the call).
 */
export function getGeneration({ ctx, request }: OperationCall): MaybePromise<CoreResponse> {
  const id = singleParam(queryParams(request.query), 'id');
  if (!id) {
    throw new GatewayError(400, {
      message: id === null ? 'id: required, a generation id (query parameter)' : 'id: must not be empty',
    });
  }
  return andThen(ctx.generations.get(id, ctx.clock.now()), (stored) => {
    if (!stored) throw new GatewayError(404, { message: 'Generation not found' });
    return { status: 200, headers: { 'Content-Type': 'application/json' }, body: stored.body };
  });
}
