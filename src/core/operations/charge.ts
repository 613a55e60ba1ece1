/**
 * What every billed call costs its key, for the operations that make generations (speech, transcription): the
 * `:free` variant's limit, then the charge (`docs/behaviour.md`, "Credits and the :free variants").
 *
 * @module
 */
import type { Account } from '../accounts/accounts.js';
import type { ResolvedModel } from '../catalog/catalog.js';
import { andThen, type MaybePromise } from '../base/types.js';
import type { GatewayContext } from './context.js';

/**
 * Counts a call of `model` against the `:free` variant's limit (when it is that variant), then charges `costUsd` to
 * `account`, at the clock's time.
 *
 * @throws {GatewayError} (or rejects with) 429 past the `:free` variant's 20 requests a minute; 402 when the key's
 *   balance cannot pay `costUsd`.
 */
export function chargeCall(ctx: GatewayContext, account: Account, model: ResolvedModel, costUsd: number): MaybePromise<void> {
  const now = ctx.clock.now();
  const charge = (): MaybePromise<void> => ctx.accounts.charge(account, costUsd, now);
  return model.variant === 'free' ? andThen(ctx.accounts.consumeFreeModelLimit(account, model.record.id, now), charge) : charge();
}
