/**
 * The Lua scripts of the audio the simulator said, kept for transcription (`rememberSaid`/`recallSaid` of the store
 * seam, `src/core/store/types.ts`): an entry a string under `<prefix>said-entry:<sha256>`, the entries by last use in
 * the sorted set `<prefix>said`, scored from the counter `<prefix>said:uses`, and the bytes of every entry's text in
 * `<prefix>said:bytes`. A write past either bound (`SAID_BOUND` entries, `SAID_BOUND_BYTES` bytes) drops the least
 * recently used entries, as the memory store's LRU does; a read moves its entry to the most recently used. A reset
 * keeps them. Each is one atomic step, so replicas see one index.
 *
 * @module
 */
import type { ScriptDefinition } from './script-base.js';

/**
 * Keeps one said audio. KEYS: use order, use counter, bytes total, entry. ARGV: sha256, text, bound of entries,
 * bound of bytes, the entries' key prefix. Drops the least recently used until both bounds hold again (exact: as
 * many as it takes, at most every entry kept). A text longer alone than the bound of bytes is not kept (as the
 * memory store does). Returns 1 when kept, 0 when not.
 */
export const rememberSaid: ScriptDefinition = {
  numberOfKeys: 4,
  lua: `
if string.len(ARGV[2]) > tonumber(ARGV[4]) then return 0 end
local before = redis.call('STRLEN', KEYS[4])
redis.call('SET', KEYS[4], ARGV[2])
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[1])
local total = redis.call('INCRBY', KEYS[3], string.len(ARGV[2]) - before)
local count = redis.call('ZCARD', KEYS[1])
while count > tonumber(ARGV[3]) or total > tonumber(ARGV[4]) do
  local popped = redis.call('ZPOPMIN', KEYS[1], 1)
  if #popped == 0 then break end
  local key = ARGV[5] .. popped[1]
  total = redis.call('INCRBY', KEYS[3], -redis.call('STRLEN', key))
  redis.call('DEL', key)
  count = count - 1
end
return 1
`,
};

/** Finds one said audio and moves it to the most recently used. KEYS: use order, use counter, entry. ARGV: sha256. Returns the text, or nil. */
export const recallSaid: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `
local text = redis.call('GET', KEYS[3])
if not text then return false end
redis.call('ZADD', KEYS[1], 'XX', redis.call('INCR', KEYS[2]), ARGV[1])
return text
`,
};
