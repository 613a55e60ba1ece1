/**
 * The Lua scripts of the Redis store that serve generation records (`putGeneration`, `getGeneration` of the store
 * seam, `src/core/store/types.ts`): kept and looked up in their order of use, bounded as the memory store's bounded
 * map is.
 *
 * @module
 */
import type { ScriptDefinition } from './script-base.js';

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
