// The summaries of the Redis stores (ioredis and Upstash): a list per session, `<prefix>{e}:summaries`,
// with the set `:summary-ids` that makes a save idempotent by summary id, both in the session's hash
// slot. A save is one session write script, fenced like an append by the lock the store holds.
import type { SummaryReadOptions, SummaryRecord } from "../memory-store";
import { parseStoredJson } from "../stored-json";
import { summaryCount } from "../summary-count";
import type { RedisSessionKeys } from "./redis-layout";
import { stringListReply } from "./redis-replies";
import { fence, touchSession } from "./redis-scripts";
import type { RedisTransport } from "./redis-transport";

// KEYS as the append script's (messages, ids, meta, summaries, summary ids, lock). ARGV: now, ttl
// (0 = none), token ('' = not fenced), summary id, JSON. Adds the summary unless its id is stored
// and touches the session; returns 1, or -1 with nothing written when the token no longer holds
// the session's lock (a run that lost its session cannot store a summary of it).
export const summaryScript = `${fence("-1")}
if redis.call('SADD', KEYS[5], ARGV[4]) == 1 then redis.call('RPUSH', KEYS[4], ARGV[5]) end
${touchSession}
return 1
`;

/** The ARGV of `summaryScript` after now, ttl and the token. */
export function summaryArguments(record: SummaryRecord): string[] {
  return [record.id, JSON.stringify(record)];
}

type Call = <T>(operation: string, sessionId: string, body: () => Promise<T>) => Promise<T>;

/** Reads a session's summaries, the newest `last` with `{ last }`, oldest first. */
export async function readRedisSummaries(
  transport: RedisTransport,
  call: Call,
  where: { store: string; keys: RedisSessionKeys },
  sessionId: string,
  options?: SummaryReadOptions,
): Promise<SummaryRecord[]> {
  const count = summaryCount(options, where.store);
  if (count === 0) return [];
  const raw = await call("getSummaries", sessionId, async () =>
    stringListReply(
      await transport.read("LRANGE", where.keys.summaries, [count === Infinity ? 0 : -count, -1]),
      "the summaries",
    ),
  );
  const read = { store: where.store, operation: "getSummaries", sessionId };
  return raw.map((text, index) => parseStoredJson<SummaryRecord>(text, { ...read, record: `summary ${index}` }));
}
