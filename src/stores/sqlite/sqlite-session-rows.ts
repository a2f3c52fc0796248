// The session rows SqliteMemoryStore reads back (getSession, entries, listSessions), as SessionEntry.
import type { ListSessionsOptions, SessionEntry, SessionPage } from "../memory-store";
import { sessionPage, sessionPageQuery } from "../session-page-query";
import type { SqliteStatements } from "./sqlite-statements";
import { parseSessionTags } from "../parse-session-tags";

/** A row of the sessions query (`sessionSelect`). */
export interface SessionRow {
  session_id: string;
  created_at: number;
  accessed_at: number;
  agent_name: string | null;
  tags: string | null;
  message_count: number;
  user_id: string | null;
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
