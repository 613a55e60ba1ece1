/**
 * `GET /api/v1/key`: the gateway's OpenAPI operation `getCurrentKey` (SDK `apiKeys.getCurrentKeyMetadata`;
 * `docs/behaviour.md`, "Keys and credits").
 *
 * @module
 */
import type { Account, KeyState } from '../accounts/accounts.js';
import { andThen, type CoreResponse, type MaybePromise } from '../base/types.js';
import type { OperationCall } from './call.js';

/**
 * The daily `:free` request quota the gateway states: 50 a day, 1000 once 10 credits were bought. The simulator
 * reports it (and counts the key's `:free` requests of the UTC day) but enforces only the per-minute limit.
 */
export const FREE_MODEL_DAILY_REQUESTS = { low: 50, high: 1000, creditsForHigh: 10 } as const;

/** What `rate_limit` holds: the gateway's deprecated field, always -1. */
const LEGACY_RATE_LIMIT = { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' } as const;

/** The `data` of `GET /key` for `account` in state `state`. */
function keyData(account: Account, state: KeyState): Record<string, unknown> {
  const usage = state.usage;
  const freeLimit = account.freeTier || (account.limit !== null && account.limit < FREE_MODEL_DAILY_REQUESTS.creditsForHigh) ? FREE_MODEL_DAILY_REQUESTS.low : FREE_MODEL_DAILY_REQUESTS.high;
  const freeUsed = state.freeRequests.daily;
  return {
    label: account.label,
    limit: account.limit,
    limit_remaining: state.remaining,
    limit_reset: null,
    include_byok_in_limit: false,
    usage: usage.total,
    usage_daily: usage.daily,
    usage_weekly: usage.weekly,
    usage_monthly: usage.monthly,
    byok_usage: 0,
    byok_usage_daily: 0,
    byok_usage_weekly: 0,
    byok_usage_monthly: 0,
    is_free_tier: account.freeTier,
    is_management_key: account.management,
    is_provisioning_key: account.management,
    creator_user_id: account.userId,
    expires_at: null,
    free_model_daily_requests: { limit: freeLimit, remaining: Math.max(0, freeLimit - freeUsed), used: freeUsed },
    allowed_data_regions: ['global'],
    organization_id: null,
    workspace_id: null,
    rate_limit: LEGACY_RATE_LIMIT,
  };
}

/**
 * Describes the calling key: its label (never the whole key), credit limit and what remains of it, what it spent
 * (the `total_cost` of its speech calls) in total and in the current UTC day, week (Monday to Sunday) and month by
 * the simulator's clock, and its flags from the keys file. Without a keys file the key is unlimited (`limit` and
 * `limit_remaining` null) and its usage still counts.
 *
 * @returns 200 `{"data": {...}}`, every member the document requires.
 */
export function getCurrentKey({ ctx, account }: OperationCall): MaybePromise<CoreResponse> {
  return andThen(ctx.accounts.keyState(account, ctx.clock.now()), (state) => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: keyData(account, state) }),
  }));
}
