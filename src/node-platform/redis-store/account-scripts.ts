/**
 * The Lua scripts of the Redis store that serve the accounts (`src/core/accounts/`): a request counted in its
 * rate-limit window, a key charged, and its ledgers added to and read, each one atomic step, so replicas sharing
 * the store spend and count as one gateway.
 *
 * Numbers: Lua's numbers are doubles, like JavaScript's; amounts and times go in and come out as text
 * (`%.17g`, which reads back to the same double), never as Redis integer replies (which would truncate).
 *
 * @module
 */
import { STATE, type ScriptDefinition } from './script-base.js';

/** `roundUsd` of `src/core/base/usd.ts` (`Math.round(value * 1e12) / 1e12`), in doubles as JavaScript does. */
const ROUND_USD = `
local function round_usd(value)
  local scaled = value * 1e12
  local whole = math.floor(scaled)
  if scaled - whole >= 0.5 then whole = whole + 1 end
  return whole / 1e12
end
local function num(value) return string.format('%.17g', value) end
`;

/**
 * Adds an amount to a ledger hash (`total`, `d<day>`) as `DailyLedger.add` does (`accounts/daily-ledger.ts`):
 * both sums rounded with `round_usd`, days older than `days_kept` before the addition's day dropped.
 */
const LEDGER_ADD = `
local function ledger_add(key, amount, day, days_kept, ttl)
  local total = tonumber(redis.call('HGET', key, 'total') or '0')
  local field = 'd' .. day
  local today = tonumber(redis.call('HGET', key, field) or '0')
  redis.call('HSET', key, 'total', num(round_usd(total + amount)), field, num(round_usd(today + amount)))
  local oldest = tonumber(day) - tonumber(days_kept)
  for _, name in ipairs(redis.call('HKEYS', key)) do
    if string.sub(name, 1, 1) == 'd' and tonumber(string.sub(name, 2)) < oldest then redis.call('HDEL', key, name) end
  end
  redis.call('PEXPIRE', key, ttl)
end
`;

/** How far apart replicas' running clocks may be, ms: a window's start is not a clock moved back by less. */
export const CLOCK_SKEW_MS = 1000;

/**
 * Counts one request in a fixed window (`countWindow`; `accounts/rate-limit.ts`): the window's start and count
 * move together with the check. A clock moved back more than {@link CLOCK_SKEW_MS} before the window's start opens a
 * new one (as in memory); less than that is the skew between replicas' running clocks (each its own `Date.now()`
 * plus the shared offset), counted in the same window. KEYS: control. ARGV: prefix, bound, scope, now (ms),
 * interval (ms), requests, ttl (ms).
 * Returns `{1}` (allowed) or `{0, start}` (refused; the window reset is start + interval).
 */
export const countWindow: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${STATE}
local epoch = epoch_of('epoch')
local key = checked(P .. 'window:' .. ARGV[3] .. '@' .. epoch, 'hash', 'state')
local now = tonumber(ARGV[4])
local interval = tonumber(ARGV[5])
local window = redis.call('HMGET', key, 'start', 'count')
local start = tonumber(window[1])
local count = tonumber(window[2]) or 0
if start == nil or now >= start + interval or now < start - ${CLOCK_SKEW_MS} then
  start = now
  count = 0
  redis.call('HSET', key, 'start', ARGV[4], 'count', 0)
end
redis.call('PEXPIRE', key, ARGV[7])
touch('windows', epoch, ARGV[3], ARGV[2], ARGV[7])
if count < tonumber(ARGV[6]) then
  redis.call('HINCRBY', key, 'count', 1)
  return {1}
end
return {0, redis.call('HGET', key, 'start')}
`,
};

/**
 * Charges a key (`charge`): the check against the limit and the addition move together, so two replicas can never
 * both spend the last cent. KEYS: control. ARGV: prefix, bound, digest, cost (USD), day, limit (USD, '' for none),
 * days kept, ttl (ms). Returns 1 (charged) or 0 (refused, nothing written).
 */
export const charge: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${STATE}${ROUND_USD}${LEDGER_ADD}
local epoch = epoch_of('epoch')
local key = checked(P .. 'ledger:usage:' .. ARGV[3] .. '@' .. epoch, 'hash', 'state')
local cost = tonumber(ARGV[4])
if ARGV[6] ~= '' then
  local spent = tonumber(redis.call('HGET', key, 'total') or '0')
  if tonumber(ARGV[6]) - spent + 1e-12 < cost then
    if spent > 0 then touch('ledgers', epoch, ARGV[3], ARGV[2], ARGV[8]) end
    return 0
  end
end
ledger_add(key, cost, ARGV[5], ARGV[7], ARGV[8])
touch('ledgers', epoch, ARGV[3], ARGV[2], ARGV[8])
return 1
`,
};

/**
 * Adds to a ledger without a check (`addToLedger`): total and day move together. KEYS: control. ARGV: prefix,
 * bound, digest, ledger name (`usage` or `free`), amount, day, days kept, ttl (ms).
 */
export const addToLedger: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${STATE}${ROUND_USD}${LEDGER_ADD}
local epoch = epoch_of('epoch')
ledger_add(checked(P .. 'ledger:' .. ARGV[4] .. ':' .. ARGV[3] .. '@' .. epoch, 'hash', 'state'), tonumber(ARGV[5]), ARGV[6], ARGV[7], ARGV[8])
touch('ledgers', epoch, ARGV[3], ARGV[2], ARGV[8])
return 1
`,
};

/**
 * Reads a ledger of the current epoch (`ledger`), a use of the key's ledgers when it has one. KEYS: control.
 * ARGV: prefix, bound, digest, ledger name, ttl (ms). Returns the hash as a flat list.
 */
export const readLedger: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${STATE}
local epoch = epoch_of('epoch')
local key = checked(P .. 'ledger:' .. ARGV[4] .. ':' .. ARGV[3] .. '@' .. epoch, 'hash', 'state')
local flat = redis.call('HGETALL', key)
if #flat > 0 then touch('ledgers', epoch, ARGV[3], ARGV[2], ARGV[5]) end
return flat
`,
};
