/**
 * The Lua scripts of the Redis store: each is one atomic step on the server, so replicas sharing the store see
 * one gateway (a charge checked and added at once, a window counted at once, a reset seen whole by the next
 * request). Each comment says what moves together.
 *
 * Per-key state (rate-limit windows, ledgers, scenario counters) is named inside the scripts from the prefix and
 * the epoch read from the control hash (`keys.ts` lists the names), so a reset on one replica applies exactly to
 * the very next request on another. Each kind of an epoch has an index (a sorted set by last use) that bounds it
 * as the memory store's bounded maps do (the least recently used goes first past the bound) and lists what a reset
 * deletes afterwards, a chunk per script call ({@link drainStale}), so no step holds the server long. Those names
 * are not declared in `KEYS`: that is why the store works with a standalone server (or one fronted by Sentinel) and
 * not with Redis Cluster, where every key a script touches must be declared and live in one slot.
 *
 * Data the simulator cannot read (a key of another type where per-key state or the controls belong) fails a script
 * with an error reply `MRDATA <what> <problem>` (`what`: `control`, `state` or `index`), which the store reports as
 * invalid data at that key (`src/core/store/invalid-data.ts`).
 *
 * Numbers: Lua's numbers are doubles, like JavaScript's; amounts and times go in and come out as text
 * (`%.17g`, which reads back to the same double), never as Redis integer replies (which would truncate).
 *
 * @module
 */

import { recallSaid, rememberSaid } from './said-scripts.js';

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
const STATE_KEYS = `
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
const STATE = `${STATE_KEYS}
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

/**
 * Keeps a generation record (`putGeneration`): the record, its place in the order of use (a sorted set scored by a
 * counter of uses), and the eviction of the least recently used past the bound move together, as the memory
 * store's bounded map does. KEYS: use order, use counter, record hash. ARGV: id, body, readyAt, bound, record prefix.
 */
export const putGeneration: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `
redis.call('HSET', KEYS[3], 'body', ARGV[2], 'readyAt', ARGV[3])
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[1])
local bound = tonumber(ARGV[4])
local over = redis.call('ZCARD', KEYS[1]) - bound
if over > 0 then
  local popped = redis.call('ZPOPMIN', KEYS[1], over) -- id, score, id, score, ...
  for i = 1, #popped, 2 do redis.call('DEL', ARGV[5] .. popped[i]) end
end
return 1
`,
};

/**
 * Looks up a generation record (`getGeneration`): the lookup and its move to most recently used go together.
 * KEYS: use order, use counter, record hash. ARGV: id. Returns `{body, readyAt}` or an empty list.
 */
export const getGeneration: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `
local record = redis.call('HMGET', KEYS[3], 'body', 'readyAt')
if not record[1] then return {} end
redis.call('ZADD', KEYS[1], 'XX', redis.call('INCR', KEYS[2]), ARGV[1])
return record
`,
};

/**
 * Records a journal entry (`journal.record`): the sequence number, the stream entry (id `<seq>-0`, trimmed to
 * about the bound), the removal of the done fields of the entry that fell out of the bound, and the store's run
 * (ARGV[3] becomes it when the store has none: it is empty, new or restarted without its data) move together.
 * KEYS: seq counter, stream, done-hash, run. ARGV: the entry's JSON without `seq`, bound, a new run id. Returns
 * `{seq, run}`.
 */
export const journalRecord: ScriptDefinition = {
  numberOfKeys: 4,
  lua: `
local run = redis.call('GET', KEYS[4])
if not run then
  run = ARGV[3]
  redis.call('SET', KEYS[4], run)
end
local seq = redis.call('INCR', KEYS[1])
local json = ARGV[1]
if json == '{}' then json = '{"seq":' .. seq .. '}' else json = string.sub(json, 1, -2) .. ',"seq":' .. seq .. '}' end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], seq .. '-0', 'e', json)
redis.call('HDEL', KEYS[3], tostring(seq - tonumber(ARGV[2])))
return {seq, run}
`,
};

/**
 * Stores the fields an entry gets when its answer ends (`journal.finish`), only while the entry is within the bound
 * (so the done-hash stays bounded). KEYS: seq counter, done-hash. ARGV: seq, the fields' JSON, bound.
 */
export const journalFinish: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > last - tonumber(ARGV[3]) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1
`,
};

/**
 * Reads journal entries after a seq within the bound (the newest `bound` seqs), with their done fields: one
 * consistent view. KEYS: seq counter, stream, done-hash. ARGV: after (seq, exclusive), most entries, bound.
 * Returns `{last seq, json1, done1, json2, done2, ...}` (done '' when the entry has not ended).
 */
export const journalRead: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local from = math.max(tonumber(ARGV[1]) + 1, last - tonumber(ARGV[3]) + 1, 1)
local out = {last}
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], string.format('%d-0', from), '+', 'COUNT', ARGV[2])) do
  local seq = string.match(entry[1], '^(%d+)-')
  out[#out + 1] = entry[2][2]
  out[#out + 1] = redis.call('HGET', KEYS[3], seq) or ''
end
return out
`,
};

/** Every script, by the command name ioredis defines for it. */
export const SCRIPTS = {
  mrCountWindow: countWindow,
  mrCharge: charge,
  mrAddToLedger: addToLedger,
  mrReadLedger: readLedger,
  mrCountRule: countRule,
  mrSetControl: setControl,
  mrSetScenario: setScenario,
  mrReset: reset,
  mrDrainStale: drainStale,
  mrPutGeneration: putGeneration,
  mrGetGeneration: getGeneration,
  mrJournalRecord: journalRecord,
  mrJournalFinish: journalFinish,
  mrJournalRead: journalRead,
  mrRememberSaid: rememberSaid,
  mrRecallSaid: recallSaid,
} as const;

/** The commands {@link SCRIPTS} defines on a client: keys then arguments, as text or numbers. */
export type ScriptCommands = {
  [name in keyof typeof SCRIPTS]: (...keysThenArgs: (string | number)[]) => Promise<unknown>;
};
