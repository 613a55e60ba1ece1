/**
 * `GET /api/v1/credits`: the gateway's OpenAPI operation `getCredits` (SDK `credits.getCredits`;
 * `docs/behaviour.md`, "Keys and credits").
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import { andThen, type CoreResponse, type MaybePromise } from '../base/types.js';
import type { OperationCall } from './call.js';

/**
 * The credits bought and used by the user that owns the calling key, over all of that user's keys (see
 * `Accounts.userTotals` in `src/core/accounts/accounts.ts`).
 *
 * @returns 200 `{"data": {"total_credits": <USD>, "total_usage": <USD>}}`.
 * @throws {GatewayError} 403 when a keys file is loaded and the key is not a management key (`management: true`);
 *   without a keys file every key may read it.
 */
export function getCredits({ ctx, account }: OperationCall): MaybePromise<CoreResponse> {
  if (ctx.accounts.configured && !account.management) {
    throw new GatewayError(403, { message: 'Only management keys can fetch credits: this key is not a management key' });
  }
  return andThen(ctx.accounts.userTotals(account), (totals) => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data: totals }) }));
}
