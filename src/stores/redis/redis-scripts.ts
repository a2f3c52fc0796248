// The Lua scripts of the Redis key layout (redis-layout.ts), run by the Redis stores' shared logic
// (redis-store-core.ts) over both transports, ioredis over TCP and @upstash/redis over HTTP: every
// write to a session is one script, so it is atomic on both. Sources only: each transport computes
// the SHA-1 for EVALSHA its own way (node:crypto, or Web Crypto on the edge), and the Upstash one
// wraps each script so its reply comes back as one JSON document (upstash-transport.ts).

import { LEDGER_ARGUMENTS, ledgerLua } from "./redis-ledger";

/**
 * The fence of the session writes that a lock holder makes (`appendScript`, `replaceScript`,
 * `cutScript`, `touchScript`, the summary and context report scripts), in Lua: `lock` is the session's lock key (KEYS[6] in
 * the session scripts) and `token` the writer's token (ARGV[3]; '' = the writer holds no lock: not
 * fenced). A writer whose lock is no longer its own (its lease ran out, and another run may have
 * taken the session) is refused before anything is written: `refused` is returned.
 */
export const fence = (refused: string, lock = "KEYS[6]", token = "ARGV[3]") => `
if ${token} ~= '' and redis.call('GET', ${lock}) ~= ${token} then return ${refused} end
`;

/**
 * Sets the meta hash's times from ARGV[1] and the ttl ARGV[2] (0 = none) on the session's five data keys
 * (never the lock). A session owned by a user on a single Redis (or Upstash) also moves in its owner's
 * index (the sorted set named by the meta's `userIndex`, in the same script: a key of another slot,
 * which only a server without cluster slots allows; on a Cluster the field is absent and the store
 * writes the index after the script, `RedisUserSessions`).
 */
export const touchSession = `
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
local userIndex = redis.call('HMGET', KEYS[3], 'userIndex', 'sessionId')
if userIndex[1] then redis.call('ZADD', userIndex[1], ARGV[1], userIndex[2]) end
if tonumber(ARGV[2]) > 0 then
  for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
`;

// KEYS: messages, ids, meta, summaries, summary ids, lock. ARGV: now, ttl (0 = none), token
// ('' = not fenced), release ('1': then release the lock, still this token's), the ledger (preview,
// day, 7 totals: redis-ledger.ts), then pairs of ("" | "#" + id, json). Appends the messages whose id
// is not yet stored, atomically, and when it stored one, records the ledger (the preview, the usage);
// returns {added, released (1 or 0), the owner whose totals the script could not reach ('' = none)};
// {-1, 0, ''} with nothing written when the token no longer holds the lock.
export const appendScript = `${fence("{-1, 0, ''}")}
local added = 0
for k = ${5 + LEDGER_ARGUMENTS}, #ARGV, 2 do
  local id = ARGV[k]
  if id == '' or redis.call('SADD', KEYS[2], id) == 1 then
    redis.call('RPUSH', KEYS[1], ARGV[k + 1])
    added = added + 1
  end
end
${ledgerLua(5, "added > 0")}
${touchSession}
local released = 0
if ARGV[4] == '1' and ARGV[3] ~= '' then released = redis.call('DEL', KEYS[6]) end
return {added, released, spentBy}
`;

// KEYS as append. ARGV: now, ttl, token, the preview ('' = none), then pairs. Replaces the history
// with exactly the given messages and the preview with theirs; returns 1, or -1 with nothing written
// when the token no longer holds the lock.
export const replaceScript = `${fence("-1")}
redis.call('DEL', KEYS[1], KEYS[2])
for k = 5, #ARGV, 2 do
  if ARGV[k] ~= '' then redis.call('SADD', KEYS[2], ARGV[k]) end
  redis.call('RPUSH', KEYS[1], ARGV[k + 1])
end
if ARGV[4] == '' then redis.call('HDEL', KEYS[3], 'preview') else redis.call('HSET', KEYS[3], 'preview', ARGV[4]) end
${touchSession}
return 1
`;

// KEYS as append. ARGV: now, ttl, token ('' = not fenced), then field/value pairs for the meta
// hash (updateSession). Returns 1, or -1 with nothing written when the token no longer holds the lock.
export const touchScript = `${fence("-1")}
for k = 4, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[k], ARGV[k + 1]) end
${touchSession}
return 1
`;

// KEYS: facts, then the writer's session lock when fenced (redis-facts.ts; never on a Cluster: another
// slot). ARGV: fact key, json, ttl (0 = none), the writer's lock token ('' = not fenced). Returns 1,
// or -1 with nothing written when the token no longer holds the lock.
export const factScript = `${fence("-1", "KEYS[2]", "ARGV[4]")}
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`;

// KEYS: facts, the writer's session lock. ARGV: fact key, the writer's lock token. Deletes the fact,
// fenced as `factScript`: HDEL's count, or -1 with nothing deleted when the token no longer holds the lock.
export const unfactScript = `${fence("-1", "KEYS[2]", "ARGV[2]")}
return redis.call('HDEL', KEYS[1], ARGV[1])
`;

// KEYS: lock. ARGV: token, lease. Renews (or releases, lease 0) a lock only when it is still ours.
export const renewScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) == 0 then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
`;

// KEYS: messages. ARGV: the LRANGE start ("" reads no message). The list's length and its tail, in
// one snapshot: {count, messages}.
export const tailScript = `
local items = {}
if ARGV[1] ~= '' then items = redis.call('LRANGE', KEYS[1], ARGV[1], -1) end
return {redis.call('LLEN', KEYS[1]), items}
`;

// KEYS: meta, messages. A session's metadata hash (flat) and message count, in one snapshot.
export const sessionScript = `return {redis.call('HGETALL', KEYS[1]), redis.call('LLEN', KEYS[2])}`;

// The folded turn (redis-turn-folding.ts): the lock and the tail in one script; the last append
// releases the lock in its own script (`appendScript` with release '1'). Every key is the
// session's (one hash tag, one Cluster slot).

// KEYS: lock, messages. ARGV: token, lease, LRANGE start ("" = no messages: the count only). Takes
// the session lock (SET NX PX, as lockSession) and, only when taken, reads the messages' count and
// tail in the same atomic step: nil when the lock is held elsewhere, else {count, messages}.
export const lockTailScript = `
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return nil end
local total = redis.call('LLEN', KEYS[2])
if ARGV[3] == '' then return {total, {}} end
return {total, redis.call('LRANGE', KEYS[2], ARGV[3], -1)}
`;

/** How many of its last messages the cut script returns to compute the preview from. */
export const CUT_TAIL = 20;

// KEYS as append. ARGV: now, ttl, token ('' = not fenced), message id, the ledger (preview, day, 7
// totals: redis-ledger.ts), then pairs as append's. deleteMessagesFrom, and with pairs its atomic
// delete-and-append: finds the message (searched from the tail, the ids set answering an unknown id
// at once), trims the list before it, forgets the deleted ids, drops the summaries that cover a
// deleted message (messageCount past the cut, or their first or last message deleted), appends the
// pairs as append does and records the ledger (the usage always: a replace always writes; the
// preview when the pairs have one). Returns {1, the owner whose totals it could not reach ('' =
// none), the list's length, its last `CUT_TAIL` messages when no preview was given (the store
// computes it from them), else {}}; -1 when the token no longer holds the lock, -2 when the session
// has no such message: nothing written.
export const cutScript = `${fence("-1")}
local target = ARGV[4]
if redis.call('SISMEMBER', KEYS[2], '#' .. target) == 0 then return -2 end
local function decoded(item)
  local ok, value = pcall(cjson.decode, item)
  if ok and type(value) == 'table' then return value end
  return nil
end
local length = redis.call('LLEN', KEYS[1])
local at = -1
for back = 1, length do
  local message = decoded(redis.call('LINDEX', KEYS[1], -back))
  if message and message.id == target then at = length - back break end
end
if at == -1 then return -2 end
local removed = {}
for _, item in ipairs(redis.call('LRANGE', KEYS[1], at, -1)) do
  local message = decoded(item)
  if message and type(message.id) == 'string' then
    removed[message.id] = true
    redis.call('SREM', KEYS[2], '#' .. message.id)
  end
end
if at == 0 then redis.call('DEL', KEYS[1]) else redis.call('LTRIM', KEYS[1], 0, at - 1) end
local summaries = redis.call('LRANGE', KEYS[4], 0, -1)
local keep = {}
for _, item in ipairs(summaries) do
  local summary = decoded(item)
  if summary and ((tonumber(summary.messageCount) or 0) > at or removed[summary.toMessageId] or removed[summary.fromMessageId]) then
    if type(summary.id) == 'string' then redis.call('SREM', KEYS[5], summary.id) end
  else
    keep[#keep + 1] = item
  end
end
if #keep < #summaries then
  redis.call('DEL', KEYS[4])
  for _, item in ipairs(keep) do redis.call('RPUSH', KEYS[4], item) end
end
for k = ${5 + LEDGER_ARGUMENTS}, #ARGV, 2 do
  local id = ARGV[k]
  if id == '' or redis.call('SADD', KEYS[2], id) == 1 then redis.call('RPUSH', KEYS[1], ARGV[k + 1]) end
end
${ledgerLua(5, "true")}
${touchSession}
local tail = {}
if ARGV[5] == '' then tail = redis.call('LRANGE', KEYS[1], -${CUT_TAIL}, -1) end
return {1, spentBy, redis.call('LLEN', KEYS[1]), tail}
`;

// KEYS as append. ARGV: now, ttl, token ('' = not fenced), the list's length the preview was computed
// at, the preview ('' = none). Sets (or removes) the preview a cut left to compute, unless the session
// was written since (its length changed) or is gone: 1, 0 when skipped, -1 when the token no longer
// holds the lock. Never touches accessedAt.
export const previewScript = `${fence("-1")}
if redis.call('EXISTS', KEYS[3]) == 0 or redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[4]) then return 0 end
if ARGV[5] == '' then redis.call('HDEL', KEYS[3], 'preview') else redis.call('HSET', KEYS[3], 'preview', ARGV[5]) end
return 1
`;

// KEYS as append. ARGV: now, ttl, token ('' = not fenced), the title, the ledger (redis-ledger.ts).
// A generated title: set only on a session that exists and has no title, with the ledger's usage
// added in the same step. Returns {1, the owner whose totals it could not reach ('' = none)} when
// written, {0, ''} when not, {-1, ''} with nothing written when the token no longer holds the lock.
export const titleScript = `${fence("{-1, ''}")}
if redis.call('EXISTS', KEYS[3]) == 0 or redis.call('HEXISTS', KEYS[3], 'title') == 1 then return {0, ''} end
redis.call('HSET', KEYS[3], 'title', ARGV[4])
${ledgerLua(5, "true")}
return {1, spentBy}
`;
