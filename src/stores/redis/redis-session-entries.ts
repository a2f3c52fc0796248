// A Redis store's session entries (`getSession`, `entries`): a session's meta hash and message
// count read in one script (one snapshot), and every indexed session's.
import type { SessionEntry } from "../memory-store";
import { type RedisSessionKeys, redisSessionEntry } from "./redis-layout";
import { hashReply, integerReply, UnexpectedReplyError } from "./redis-replies";
import { sessionScript } from "./redis-scripts";
import type { RedisSessionIndex } from "./redis-session-index";
import type { RedisTransport } from "./redis-transport";

type Call = <T>(operation: string, sessionId: string | undefined, body: () => Promise<T>) => Promise<T>;

/** `getSession`: the entry of a session, or undefined when it has no metadata. */
export async function readRedisSession(
  where: { store: string; transport: RedisTransport; call: Call },
  sessionId: string,
  keys: RedisSessionKeys,
): Promise<SessionEntry | undefined> {
  // One script, so the metadata and the count are read at the same instant.
  const [meta, count] = await where.call("getSession", sessionId, async () => {
    const reply = await where.transport.script(sessionScript, [keys.meta, keys.messages], []);
    const what = "the session script's {metadata, message count}";
    if (!Array.isArray(reply) || reply.length !== 2) throw new UnexpectedReplyError(what, reply);
    return [hashReply(reply[0], what), integerReply(reply[1], what)] as const;
  });
  return redisSessionEntry(where.store, sessionId, meta, count, keys.meta);
}

/** `entries`: every indexed session's entry; the index forgets the sessions that are gone (expired by ttl). */
export async function allRedisSessions(
  index: RedisSessionIndex,
  call: Call,
  getSession: (sessionId: string) => Promise<SessionEntry | undefined>,
): Promise<SessionEntry[]> {
  const ids = await call("entries", undefined, () => index.all());
  const found = await Promise.all(ids.map((id) => getSession(id).then((entry) => [id, entry] as const)));
  const missing = found.filter(([, entry]) => entry === undefined).map(([id]) => id);
  await call("entries", undefined, () => index.remove(missing));
  return found.flatMap(([, entry]) => (entry ? [entry] : []));
}
