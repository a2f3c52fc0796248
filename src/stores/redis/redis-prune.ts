// `prune` on the Redis stores: the sessions the index holds as not written since a time, each
// deleted by one script that checks its `accessedAt` again (a write since keeps it).
import type { RedisSessionKeys } from "./redis-layout";
import { sessionScriptKeys } from "./redis-layout";
import { integerReply } from "./redis-replies";
import type { RedisSessionIndex } from "./redis-session-index";
import type { RedisTransport } from "./redis-transport";

// KEYS: the session's five data keys, then its context reports. ARGV: olderThan. Deletes the session
// when it was not written since: 1; -1 when it was (kept); 0 when it is gone.
const pruneScript = `
local accessed = tonumber(redis.call('HGET', KEYS[3], 'accessedAt'))
if accessed == nil then return 0 end
if accessed >= tonumber(ARGV[1]) then return -1 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
if KEYS[6] then redis.call('DEL', KEYS[6]) end
return 1
`;

type Call = <T>(operation: string, sessionId: string | undefined, body: () => Promise<T>) => Promise<T>;

/** Deletes the sessions not written since `olderThan`; resolves to their ids. A gone or deleted one leaves the index. */
export async function pruneRedisSessions(
  where: { transport: RedisTransport; index: RedisSessionIndex; keys: (sessionId: string) => RedisSessionKeys },
  call: Call,
  olderThan: number,
): Promise<string[]> {
  const candidates = await call("prune", undefined, () => where.index.writtenBefore(olderThan));
  const pruned: string[] = [];
  for (const id of candidates) {
    const keys = where.keys(id);
    const result = await call("prune", id, async () =>
      integerReply(
        await where.transport.script(pruneScript, [...sessionScriptKeys(keys), keys.reports], [String(olderThan)]),
        "the prune script's -1, 0 or 1",
      ),
    );
    if (result === 1) pruned.push(id);
    if (result !== -1) await call("prune", id, () => where.index.remove([id]));
  }
  return pruned;
}
