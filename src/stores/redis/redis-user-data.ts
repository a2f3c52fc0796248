// `deleteUserData` on the Redis stores (docs/threads.md): a user's sessions, read from their index,
// deleted one by one, then their facts and totals.
import type { UserDataDeletion } from "../usage-totals";
import { redisFactScopesKey, redisSessionKeys, sessionScriptKeys } from "./redis-layout";
import { userUsageKeys } from "./redis-ledger";
import { integerReply, stringListReply, UnexpectedReplyError } from "./redis-replies";
import type { RedisSessionIndex } from "./redis-session-index";
import type { RedisTransport } from "./redis-transport";
import type { RedisUserSessions } from "./redis-user-sessions";

// KEYS: the session's messages, ids, meta, summaries, summary ids, context reports, lock. ARGV: the
// user id. Deletes the session when that user owns it: {1, how many messages it held}; {0, 0} when it
// is gone or another's (nothing deleted). The lock goes too: a run still holding it is fenced out.
const deleteSessionScript = `
if redis.call('HGET', KEYS[3], 'userId') ~= ARGV[1] then return {0, 0} end
local count = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
return {1, count}
`;

// KEYS: a fact scope's hash. Deletes it; returns how many facts it held.
const deleteFactsScript = `
local count = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return count
`;

/** Sessions read from the user's index at a time. */
const BATCH = 100;

type Call = <T>(operation: string, sessionId: string | undefined, body: () => Promise<T>) => Promise<T>;

/**
 * Deletes `userId`'s data. Each session listed in the user's index is checked to be theirs (its meta's
 * `userId`; an entry of a session that is gone or not theirs only leaves the index), then deleted
 * in this order: its fact scope `session:<id>`, its keys (one script, which checks the owner again),
 * its entry in the session index, and last its entry in the user's index; so a call that fails half
 * way leaves every session it did not finish listed, and a retry finishes it. Then the user's fact
 * scope `user:<id>` and their totals. Each step is one key's slot (a Cluster runs it as well).
 */
export async function deleteRedisUserData(
  where: { prefix: string; transport: RedisTransport; users: RedisUserSessions; index: RedisSessionIndex },
  call: Call,
  userId: string,
): Promise<UserDataDeletion> {
  const { prefix, transport, users } = where;
  const operation = "deleteUserData";
  const userIndex = users.keyOf(userId);
  const deleted: UserDataDeletion = { sessions: 0, messages: 0, facts: 0 };
  const deleteFacts = async (scopeId: string) => {
    const key = redisSessionKeys(prefix, scopeId, "scopeId").facts;
    const count = integerReply(await transport.script(deleteFactsScript, [key], []), "the facts' count");
    await transport.command(["SREM", redisFactScopesKey(prefix), scopeId]);
    return count;
  };
  const deleteSession = async (sessionId: string) => {
    const keys = redisSessionKeys(prefix, sessionId);
    // HMGET, a list: a script's bare string reply could be taken for JSON by the Upstash client.
    const owner = await transport.read("HMGET", keys.meta, ["userId"]);
    if (Array.isArray(owner) && owner[0] === userId) {
      const facts = await deleteFacts(`session:${sessionId}`); // read before adding: sessions run side by side
      deleted.facts += facts;
      const reply = await transport.script(
        deleteSessionScript,
        [...sessionScriptKeys(keys), keys.reports, keys.lock],
        [userId],
      );
      const what = "the delete script's {deleted, messages}";
      if (!Array.isArray(reply) || reply.length !== 2) throw new UnexpectedReplyError(what, reply);
      if (integerReply(reply[0], what) === 1) {
        deleted.sessions += 1;
        deleted.messages += integerReply(reply[1], what);
      }
      users.forget(sessionId);
      await where.index.remove([sessionId]);
    }
    await transport.command(["ZREM", userIndex, sessionId]);
  };
  await call(operation, undefined, async () => {
    for (;;) {
      const ids = stringListReply(await transport.read("ZRANGE", userIndex, [0, BATCH - 1]), "the user's sessions");
      if (ids.length === 0) break;
      await Promise.all(ids.map(deleteSession));
    }
    const facts = await deleteFacts(`user:${userId}`);
    deleted.facts += facts;
    const totals = userUsageKeys(users.baseOf(userId));
    await transport.command(["DEL", totals.running, totals.byDay]);
  });
  return deleted;
}
