// The session rows PostgresMemoryStore reads back (getSession, entries), as SessionEntry.
import type { SessionEntry } from "../memory-store";
import { parseSessionTags } from "../parse-session-tags";

/** A row of the sessions query (`sessionSelect`): numbers come back from `pg` as text. */
export interface SessionRow {
  session_id: string;
  created_at: string;
  accessed_at: string;
  agent_name: string | null;
  tags: string | null;
  message_count: string;
  user_id: string | null;
}

/** A session row as the SessionEntry the store returns (`table` names where a bad tags value was read). */
export function entryOf(row: SessionRow, operation: string, table: string): SessionEntry {
  return {
    sessionId: row.session_id,
    createdAt: Number(row.created_at),
    accessedAt: Number(row.accessed_at),
    messageCount: Number(row.message_count),
    ...(row.user_id == null ? {} : { userId: row.user_id }),
    ...(row.agent_name === null ? {} : { agentName: row.agent_name }),
    ...(row.tags === null
      ? {}
      : {
          tags: parseSessionTags(row.tags, {
            store: "PostgresMemoryStore",
            operation,
            sessionId: row.session_id,
            path: table,
          }),
        }),
  };
}
