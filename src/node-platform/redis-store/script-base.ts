/**
 * What the Lua scripts of the Redis store share: the shape ioredis takes a script in ({@link ScriptDefinition}),
 * and the Lua of per-key state (rate-limit windows, ledgers, scenario counters), which the scripts of
 * `account-scripts.ts` and `control-scripts.ts` build on.
 *
 * Per-key state is named inside the scripts from the prefix and the epoch read from the control hash
 * (`key-names.ts` lists the names), so a reset on one replica applies exactly to the very next request on another.
 * Each kind of an epoch has an index (a sorted set by last use) that bounds it as the memory store's bounded maps do
 * (the least recently used goes first past the bound) and lists what a reset deletes afterwards, a chunk per script
 * call (`drainStale` of `control-scripts.ts`), so no step holds the server long.
 *
 * @module
 */

/** A script as ioredis' `defineCommand` takes it. */
export interface ScriptDefinition {
  readonly numberOfKeys: number;
  readonly lua: string;
}

/**
 * The names of per-key state, for scripts whose `ARGV[1]` is the prefix (`P`): `state_keys(kind, member, epoch)`
 * are the keys of one member of an index (`windows`: a window's scope; `ledgers`: a key's digest, both its ledgers;
 * `rules`: a counter's slot); `drop(kind, epoch, popped)` unlinks the keys of the members of a `ZPOPMIN` reply.
 */
export const STATE_KEYS = `
local P = ARGV[1]
local function state_keys(kind, member, epoch)
  if kind == 'windows' then return {P .. 'window:' .. member .. '@' .. epoch} end
  if kind == 'ledgers' then return {P .. 'ledger:usage:' .. member .. '@' .. epoch, P .. 'ledger:free:' .. member .. '@' .. epoch} end
  return {P .. 'rule:' .. member .. '@' .. epoch}
end
local function drop(kind, epoch, popped)
  local doomed = {}
  for i = 1, #popped, 2 do
    for _, key in ipairs(state_keys(kind, popped[i], epoch)) do doomed[#doomed + 1] = key end
  end
  if #doomed > 0 then redis.call('UNLINK', unpack(doomed)) end
end
`;

/** Most members one use evicts (more only after a smaller bound: the index then shrinks over several uses). */
const EVICT_MOST = 100;

/**
 * Per-key state of an epoch, for scripts whose `KEYS[1]` is the control hash and `ARGV[1]` the prefix: the names
 * of {@link STATE_KEYS}, and
 *
 * - `checked(key, type, what)`: `key`, or fails `MRDATA <what>` when it holds another type than `type`;
 * - `epoch_of(field)`: the epoch field (`epoch` for windows and ledgers, `counters` for scenario counters), `'0'`
 *   when absent; fails `MRDATA control` when the control key is not a hash;
 * - `touch(kind, epoch, member, bound, ttl)`: a use of `member` in its kind's index; past `bound` the least
 *   recently used members go, with their keys ({@link EVICT_MOST} at most). The index lives as long as its
 *   longest-lived key (`ttl`, ms).
 */
export const STATE = `${STATE_KEYS}
local function checked(key, expected, what)
  local found = redis.call('TYPE', key)['ok']
  if found ~= 'none' and found ~= expected then error({err = 'MRDATA ' .. what .. ' holds a ' .. found .. ', expected a ' .. expected}) end
  return key
end
local function epoch_of(field)
  checked(KEYS[1], 'hash', 'control')
  return redis.call('HGET', KEYS[1], field) or '0'
end
local function touch(kind, epoch, member, bound, ttl)
  local index = checked(P .. kind .. '@' .. epoch, 'zset', 'index')
  redis.call('ZADD', index, redis.call('INCR', P .. 'state:uses'), member)
  if redis.call('PTTL', index) < tonumber(ttl) then redis.call('PEXPIRE', index, ttl) end
  local over = redis.call('ZCARD', index) - tonumber(bound)
  if over > 0 then drop(kind, epoch, redis.call('ZPOPMIN', index, math.min(over, ${EVICT_MOST}))) end
end
`;
