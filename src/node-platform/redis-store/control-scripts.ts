/**
 * The Lua scripts of the Redis store that serve the shared controls: the clock and the default scenario written
 * with a new version, a scenario counter counted, a reset seen whole by the next request on any replica, and the
 * per-key state of old epochs deleted afterwards, a chunk at a time.
 *
 * @module
 */
import { STATE, STATE_KEYS, type ScriptDefinition } from './script-base.js';

/**
 * Counts one use of a scenario counter (`countRule`): the count and its expiry move together. KEYS: control.
 * ARGV: prefix, bound, slot, ttl (ms). Returns the count before.
 */
export const countRule: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${STATE}
local epoch = epoch_of('counters')
local key = checked(P .. 'rule:' .. ARGV[3] .. '@' .. epoch, 'string', 'state')
local count = redis.call('INCR', key)
redis.call('PEXPIRE', key, ARGV[4])
touch('rules', epoch, ARGV[3], ARGV[2], ARGV[4])
return count - 1
`,
};

/** Writes one control field (the clock) and a new version together. KEYS: control. ARGV: field, value, version. */
export const setControl: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2], 'version', ARGV[3])
return 1
`,
};

/**
 * Changes the default scenario (`setScenario`): the scenario, a new version and a new counters' epoch (every
 * scenario counter restarts; the old epoch's index goes to the stale set, deleted afterwards) move together.
 * KEYS: control, stale set. ARGV: the scenario's JSON, version, counters' epoch.
 */
export const setScenario: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `
redis.call('SADD', KEYS[2], 'rules@' .. (redis.call('HGET', KEYS[1], 'counters') or '0'))
redis.call('HSET', KEYS[1], 'scenario', ARGV[1], 'version', ARGV[2], 'counters', ARGV[3])
return 1
`,
};

/**
 * Resets the gateway (`reset`): the default scenario back to each replica's initial one, a new version, a new epoch
 * (ledgers and rate-limit windows), a new counters' epoch (the old epochs' indexes go to the stale set, deleted
 * afterwards), and the journal gone, all together. The clock, generation records, serials and the journal's
 * sequence stay. It also mends a control key the simulator cannot read: one of another type is replaced whole
 * (its epochs, unknown, are not in the stale set), a clock equal to ARGV[4] (found invalid by the replica) is
 * dropped. KEYS: control, journal stream, journal done-hash, stale set. ARGV: version, epoch, counters' epoch, the
 * clock to drop ('' for none). Returns 2 when the control key was replaced, 1 when its clock was dropped, else 0.
 */
export const reset: ScriptDefinition = {
  numberOfKeys: 4,
  lua: `
local found = redis.call('TYPE', KEYS[1])['ok']
local mended = 0
if found == 'hash' then
  local old = redis.call('HMGET', KEYS[1], 'epoch', 'counters')
  redis.call('SADD', KEYS[4], 'windows@' .. (old[1] or '0'), 'ledgers@' .. (old[1] or '0'), 'rules@' .. (old[2] or '0'))
  if ARGV[4] ~= '' and redis.call('HGET', KEYS[1], 'clock') == ARGV[4] then
    redis.call('HDEL', KEYS[1], 'clock')
    mended = 1
  end
  redis.call('HDEL', KEYS[1], 'scenario')
else
  if found ~= 'none' then
    redis.call('DEL', KEYS[1])
    mended = 2
  end
  redis.call('SADD', KEYS[4], 'windows@0', 'ledgers@0', 'rules@0')
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'epoch', ARGV[2], 'counters', ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
return mended
`,
};

/**
 * Deletes one chunk of the per-key state of old epochs (after a reset or a change of the default scenario): up to
 * ARGV[2] members of one index named in the stale set, with their keys (`UNLINK`: the server frees them in the
 * background); the index leaves the set once empty. KEYS: stale set. ARGV: prefix, members per chunk. Returns how
 * many indexes are left in the set (0: done).
 */
export const drainStale: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${STATE_KEYS}
local entry = redis.call('SRANDMEMBER', KEYS[1])
if not entry then return 0 end
local at = string.find(entry, '@', 1, true)
local index = P .. entry
local found = redis.call('TYPE', index)['ok']
if at and found == 'zset' then
  drop(string.sub(entry, 1, at - 1), string.sub(entry, at + 1), redis.call('ZPOPMIN', index, tonumber(ARGV[2])))
elseif found ~= 'none' then
  redis.call('UNLINK', index)
end
if redis.call('EXISTS', index) == 0 then redis.call('SREM', KEYS[1], entry) end
return redis.call('SCARD', KEYS[1])
`,
};
