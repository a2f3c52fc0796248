// The context reports of the Redis stores (ioredis and Upstash): a list per session,
// `<prefix>{e}:context-reports`, in the session's hash slot, bounded by one script per save.
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { checkContextReport, contextReportCount, MAX_CONTEXT_REPORTS, type ContextReport } from "../context-report";
import type { ContextReportReadOptions } from "../context-report";
import { parseStoredJson } from "../stored-json";
import type { RedisSessionKeys } from "./redis-layout";
import { integerReply, stringListReply } from "./redis-replies";
import { fence } from "./redis-scripts";
import type { RedisSessionLocks } from "./redis-session-locks";
import type { RedisTransport } from "./redis-transport";

// KEYS: meta, reports, lock. ARGV: ttl (0 = none), the report's JSON prefix up to its id, JSON,
// max, the writer's lock token ('' = not fenced). Fenced as an append is: -1, nothing written,
// when the token no longer holds the session's lock. Only on a session that exists; skipped when
// one of the newest 8 reports has the id (a retry); the list trimmed to the newest max. Returns 1
// when stored, 0 when skipped. Never touches the session's accessedAt.
const reportScript = `${fence("-1", "KEYS[3]", "ARGV[5]")}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for _, item in ipairs(redis.call('LRANGE', KEYS[2], -8, -1)) do
  if string.sub(item, 1, #ARGV[2]) == ARGV[2] then return 0 end
end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[4]), -1)
if tonumber(ARGV[1]) > 0 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
return 1
`;

type Call = <T>(operation: string, sessionId: string, body: () => Promise<T>) => Promise<T>;

/**
 * Saves a report (see `reportScript`), fenced by the lock `locks` holds on the session, if any (a
 * run's), as the run's appends are: refused with `SessionLockLostError` once that lock was lost.
 * Without one (a save outside a run) it is not fenced.
 */
export async function saveRedisContextReport(
  transport: RedisTransport,
  call: Call,
  where: { store: string; keys: RedisSessionKeys; ttl: string },
  sessionId: string,
  report: ContextReport,
  locks: Pick<RedisSessionLocks, "tokenOf">,
): Promise<void> {
  checkContextReport(sessionId, report, where.store);
  // The id first, so a stored report is recognised by its first characters.
  const { id, ...rest } = report;
  const json = JSON.stringify({ id, ...rest });
  const idPrefix = `{"id":${JSON.stringify(report.id)},`;
  const operation = "saveContextReport";
  const outcome = await call(operation, sessionId, async () =>
    integerReply(
      await transport.script(
        reportScript,
        [where.keys.meta, where.keys.reports, where.keys.lock],
        [where.ttl, idPrefix, json, String(MAX_CONTEXT_REPORTS), locks.tokenOf(sessionId) ?? ""],
      ),
      "the report script's -1, 0 or 1",
    ),
  );
  if (outcome === -1) throw new SessionLockLostError({ store: where.store, operation, sessionId });
}

/** Reads a session's reports, the newest `last` with `{ last }`, oldest first. */
export async function readRedisContextReports(
  transport: RedisTransport,
  call: Call,
  where: { store: string; keys: RedisSessionKeys },
  sessionId: string,
  options?: ContextReportReadOptions,
): Promise<ContextReport[]> {
  const count = contextReportCount(options, where.store);
  if (count === 0) return [];
  const raw = await call("getContextReports", sessionId, async () =>
    stringListReply(
      await transport.read("LRANGE", where.keys.reports, [count === Infinity ? 0 : -count, -1]),
      "the context reports",
    ),
  );
  const read = { store: where.store, operation: "getContextReports", sessionId };
  return raw.map((text, index) => parseStoredJson<ContextReport>(text, { ...read, record: `report ${index}` }));
}
