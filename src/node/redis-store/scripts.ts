/**
 * The Lua scripts of the Redis store: each is one atomic step on the server, so replicas sharing the store see
 * one gateway (a charge checked and added at once, a window counted at once, a reset seen whole by the next
 * request). Each comment says what moves together.
 *
 * Epoch-scoped keys (windows, ledgers, scenario counters) are named inside the scripts from the epoch read from the
 * control hash, so a reset on one replica applies exactly to the very next request on another. Those names are
 * not declared in `KEYS`: that is why the store works with a standalone server (or one fronted by Sentinel) and
 * not with Redis Cluster, where every key a script touches must be declared and live in one slot.
 *
 * Numbers: Lua's numbers are doubles, like JavaScript's; amounts and times go in and come out as text
 * (`%.17g`, which reads back to the same double), never as Redis integer replies (which would truncate).
 *
 * @module
 */

/** A script as ioredis' `defineCommand` takes it. */
export interface ScriptDefinition {
  readonly numberOfKeys: number;
  readonly lua: string;
}

/** `@<epoch>` appended to a base name: the epoch field `field` of the control hash `KEYS[1]` (0 when absent). */
const EPOCH_KEY = `
local function scoped(field, base)
  return base .. '@' .. (redis.call('HGET', KEYS[1], field) or '0')
end
`;

/** `roundUsd` of `src/core/accounts/usd.ts` (`Math.round(value * 1e12) / 1e12`), in doubles as JavaScript does. */
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
 * plus the shared offset), counted in the same window. KEYS: control, window base. ARGV: now (ms), interval (ms),
 * requests, ttl (ms).
 * Returns `{1}` (allowed) or `{0, start}` (refused; the window reset is start + interval).
 */
export const countWindow: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `${EPOCH_KEY}
local key = scoped('epoch', KEYS[2])
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local window = redis.call('HMGET', key, 'start', 'count')
local start = tonumber(window[1])
local count = tonumber(window[2]) or 0
if start == nil or now >= start + interval or now < start - ${CLOCK_SKEW_MS} then
  start = now
  count = 0
  redis.call('HSET', key, 'start', ARGV[1], 'count', 0)
end
redis.call('PEXPIRE', key, ARGV[4])
if count < tonumber(ARGV[3]) then
  redis.call('HINCRBY', key, 'count', 1)
  return {1}
end
return {0, redis.call('HGET', key, 'start')}
`,
};

/**
 * Charges a key (`charge`): the check against the limit and the addition move together, so two replicas can never
 * both spend the last cent. KEYS: control, usage ledger base. ARGV: cost (USD), day, limit (USD, '' for none),
 * days kept, ttl (ms). Returns 1 (charged) or 0 (refused, nothing written).
 */
export const charge: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `${EPOCH_KEY}${ROUND_USD}${LEDGER_ADD}
local key = scoped('epoch', KEYS[2])
local cost = tonumber(ARGV[1])
if ARGV[3] ~= '' then
  local spent = tonumber(redis.call('HGET', key, 'total') or '0')
  if tonumber(ARGV[3]) - spent + 1e-12 < cost then return 0 end
end
ledger_add(key, cost, ARGV[2], ARGV[4], ARGV[5])
return 1
`,
};

/**
 * Adds to a ledger without a check (`addToLedger`): total and day move together. KEYS: control, ledger base.
 * ARGV: amount, day, days kept, ttl (ms).
 */
export const addToLedger: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `${EPOCH_KEY}${ROUND_USD}${LEDGER_ADD}
ledger_add(scoped('epoch', KEYS[2]), tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4])
return 1
`,
};

/** Reads a ledger of the current epoch (`ledger`): KEYS: control, ledger base. Returns the hash as a flat list. */
export const readLedger: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `${EPOCH_KEY}
return redis.call('HGETALL', scoped('epoch', KEYS[2]))
`,
};

/**
 * Counts one use of a scenario counter (`countRule`): the count and its expiry move together. KEYS: control,
 * counter base. ARGV: ttl (ms). Returns the count before.
 */
export const countRule: ScriptDefinition = {
  numberOfKeys: 2,
  lua: `${EPOCH_KEY}
local key = scoped('counters', KEYS[2])
local count = redis.call('INCR', key)
redis.call('PEXPIRE', key, ARGV[1])
return count - 1
`,
};

/** Writes one control field (the clock) and bumps the version together. KEYS: control. ARGV: field, value. */
export const setControl: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'version', 1)
return 1
`,
};

/**
 * Changes the default scenario (`setScenario`): the scenario, the version and the counters' epoch (every scenario
 * counter restarts) move together. KEYS: control. ARGV: the scenario's JSON.
 */
export const setScenario: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `
redis.call('HSET', KEYS[1], 'scenario', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HINCRBY', KEYS[1], 'counters', 1)
return 1
`,
};

/**
 * Resets the gateway (`reset`): the default scenario back to each replica's initial one, a new version, a new epoch
 * (ledgers and rate-limit windows), a new counters' epoch, and the journal gone, all together. The clock,
 * generation records, serials and the journal's sequence stay. KEYS: control, journal stream, journal done-hash.
 */
export const reset: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `
redis.call('HDEL', KEYS[1], 'scenario')
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HINCRBY', KEYS[1], 'counters', 1)
redis.call('DEL', KEYS[2], KEYS[3])
return 1
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
 * Records a journal entry (`journal.record`): the sequence number, the stream entry (id `<seq>-0`, trimmed to about
 * the bound) and the removal of the done fields of the entry that fell out of the bound move together. KEYS: seq
 * counter, stream, done-hash. ARGV: the entry's JSON without `seq`, bound. Returns the seq.
 */
export const journalRecord: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `
local seq = redis.call('INCR', KEYS[1])
local json = ARGV[1]
if json == '{}' then json = '{"seq":' .. seq .. '}' else json = string.sub(json, 1, -2) .. ',"seq":' .. seq .. '}' end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], seq .. '-0', 'e', json)
redis.call('HDEL', KEYS[3], tostring(seq - tonumber(ARGV[2])))
return seq
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
  mrPutGeneration: putGeneration,
  mrGetGeneration: getGeneration,
  mrJournalRecord: journalRecord,
  mrJournalFinish: journalFinish,
  mrJournalRead: journalRead,
} as const;

/** The commands {@link SCRIPTS} defines on a client: keys then arguments, as text or numbers. */
export type ScriptCommands = {
  [name in keyof typeof SCRIPTS]: (...keysThenArgs: (string | number)[]) => Promise<unknown>;
};
