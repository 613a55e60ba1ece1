/**
 * The Lua scripts of the Redis store that serve the journal (`journal.ts`): an entry recorded with its sequence
 * number in a capped stream, the fields it gets when its answer ends, and a consistent read of the entries within
 * the bound.
 *
 * @module
 */
import type { ScriptDefinition } from './script-base.js';

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
