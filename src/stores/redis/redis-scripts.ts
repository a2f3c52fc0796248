// The Lua scripts of the Redis key layout (redis-layout.ts), shared by RedisMemoryStore (ioredis,
// over TCP) and UpstashRedisMemoryStore (@upstash/redis, over HTTP): every write to a session is
// one script, so it is atomic on both. Sources only: each store computes the SHA-1 for EVALSHA its
// own way (node:crypto, or Web Crypto on the edge). Never change a script's behaviour for one
// store only: both must read what the other wrote.

/**
 * The writes of an append, in Lua, shared by `appendScript` and `appendUnlockScript`: the
 * (id, json) pairs from ARGV[firstPair] on whose id is not yet stored are pushed (`added` counts
 * them), the meta hash's times set from ARGV[1], and the ttl ARGV[2] (0 = none) set on KEYS 1 to
 * `lastExpiring` (the session's five data keys: messages, ids, meta, summaries, summary ids).
 */
const appendWrites = (firstPair: number, lastExpiring: string) => `
local added = 0
for k = ${firstPair}, #ARGV, 2 do
  local id = ARGV[k]
  if id == '' or redis.call('SADD', KEYS[2], id) == 1 then
    redis.call('RPUSH', KEYS[1], ARGV[k + 1])
    added = added + 1
  end
end
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for i = 1, ${lastExpiring} do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
`;

// KEYS: messages, ids, meta, summaries, summary ids. ARGV: now, ttl (0 = none), then pairs of
// ("" | "#" + id, json). Appends the messages whose id is not yet stored, atomically.
export const appendScript = `${appendWrites(3, "#KEYS")}return added
`;

// Same keys and arguments; replaces the history with exactly the given messages.
export const replaceScript = `
redis.call('DEL', KEYS[1], KEYS[2])
for k = 3, #ARGV, 2 do
  if ARGV[k] ~= '' then redis.call('SADD', KEYS[2], ARGV[k]) end
  redis.call('RPUSH', KEYS[1], ARGV[k + 1])
end
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`;

// Same keys. ARGV: now, ttl, then field/value pairs for the meta hash.
export const touchScript = `
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
for k = 3, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[k], ARGV[k + 1]) end
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`;

// Same keys. ARGV: now, ttl, summary id, json.
export const summaryScript = `
if redis.call('SADD', KEYS[5], ARGV[3]) == 1 then redis.call('RPUSH', KEYS[4], ARGV[4]) end
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`;

// KEYS: facts. ARGV: fact key, json, ttl (0 = none).
export const factScript = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`;

// Same keys as append. ARGV: olderThan. Deletes the session when it was not written since.
export const pruneScript = `
local accessed = tonumber(redis.call('HGET', KEYS[3], 'accessedAt'))
if accessed == nil then return 0 end
if accessed >= tonumber(ARGV[1]) then return -1 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
`;

// KEYS: lock. ARGV: token, lease. Renews (or releases, lease 0) a lock only when it is still ours.
export const renewScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) == 0 then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
`;

// The folded turn of RedisMemoryStore (redis-turn-folding.ts; UpstashRedisMemoryStore does not use
// them). Every key is the session's (one hash tag, one Cluster slot).

// KEYS: lock, messages. ARGV: token, lease, LRANGE start ("" = no messages: the count only). Takes
// the session lock (SET NX PX, as lockSession) and, only when taken, reads the messages' count and
// tail in the same atomic step: nil when the lock is held elsewhere, else {count, messages}.
export const lockTailScript = `
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return nil end
local total = redis.call('LLEN', KEYS[2])
if ARGV[3] == '' then return {total, {}} end
return {total, redis.call('LRANGE', KEYS[2], ARGV[3], -1)}
`;

// KEYS: messages, ids, meta, summaries, summary ids, lock. ARGV: now, ttl (0 = none), token, then
// pairs of ("" | "#" + id, json). The append script's append (the same writes, the ttl on the same
// five keys), then the release of the lock when it is still this token's (the renew script with
// lease 0). Returns {added, released (1 or 0)}.
export const appendUnlockScript = `${appendWrites(4, "5")}local released = 0
if redis.call('GET', KEYS[6]) == ARGV[3] then released = redis.call('DEL', KEYS[6]) end
return {added, released}
`;
