// The session rows SqliteMemoryStore reads back (getSession, entries, listSessions), as SessionEntry.
import type { ListSessionsOptions, SessionEntry, SessionPage } from "../memory-store";
import { sessionPage, sessionPageQuery } from "../session-page-query";
import type { SqliteStatements } from "./sqlite-statements";
import { parseSessionTags } from "../parse-session-tags";
import type { SessionMetadata } from "../session-metadata";
import { parseStoredJson } from "../stored-json";
import { USAGE_FIELDS, type UsageTotals } from "../usage-totals";
import { USAGE_COLUMNS } from "./sqlite-schema";

/** A row of the sessions query (`sessionSelect`). */
export interface SessionRow {
  session_id: string;
  created_at: number;
  accessed_at: number;
  agent_name: string | null;
  tags: string | null;
  message_count: number;
  user_id: string | null;
  title: string | null;
  metadata: string | null;
  preview: string | null;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
  model_calls: number;
  cost: number;
}

/** The usage columns of a row (`USAGE_COLUMNS`) as `UsageTotals`. */
export function usageOf(row: Record<(typeof USAGE_COLUMNS)[number], number>): UsageTotals {
  return Object.fromEntries(
    USAGE_FIELDS.map((field, index) => [field, row[USAGE_COLUMNS[index]!]]),
  ) as unknown as UsageTotals;
}

/** A session row as the SessionEntry the store returns (`table` names where a bad tags value was read). */
export function entryOf(row: SessionRow, operation: string, table: string): SessionEntry {
  return {
    sessionId: row.session_id,
    createdAt: row.created_at,
    accessedAt: row.accessed_at,
    messageCount: row.message_count,
    ...(row.user_id == null ? {} : { userId: row.user_id }),
    ...(row.agent_name === null ? {} : { agentName: row.agent_name }),
    ...(row.tags === null
      ? {}
      : {
          tags: parseSessionTags(row.tags, {
            store: "SqliteMemoryStore",
            operation,
            sessionId: row.session_id,
            path: table,
          }),
        }),
    ...(row.title === null ? {} : { title: row.title }),
    ...(row.metadata === null
      ? {}
      : {
          metadata: parseStoredJson<SessionMetadata>(row.metadata, {
            store: "SqliteMemoryStore",
            operation,
            sessionId: row.session_id,
            record: "session metadata",
          }),
        }),
    ...(row.preview === null ? {} : { preview: row.preview }),
    usage: usageOf(row),
  };
}

/** A page of a user's sessions, read by the `(user_id, accessed_at, session_id)` index from the cursor's position on. */
export function listSqliteSessions(
  statements: SqliteStatements,
  wrap: <T>(operation: string, sessionId: string | undefined, body: () => T) => T,
  table: string,
  options: ListSessionsOptions,
): SessionPage {
  const { userId, limit, after } = sessionPageQuery(options);
  const rows = wrap("listSessions", undefined, () =>
    after
      ? statements.userSessionsAfter.all(userId, after.accessedAt, after.sessionId, limit + 1)
      : statements.userSessions.all(userId, limit + 1),
  ) as SessionRow[];
  return sessionPage(
    rows.map((row) => entryOf(row, "listSessions", table)),
    limit,
  );
}
