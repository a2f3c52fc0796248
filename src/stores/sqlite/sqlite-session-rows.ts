// The session rows SqliteMemoryStore reads back (getSession, entries), as SessionEntry.
import type { SessionEntry } from "../memory-store";
import { parseSessionTags } from "../parse-session-tags";

/** A row of the sessions query (`sessionSelect`). */
export interface SessionRow {
  session_id: string;
  created_at: number;
  accessed_at: number;
  agent_name: string | null;
  tags: string | null;
  message_count: number;
}

/** A session row as the SessionEntry the store returns (`table` names where a bad tags value was read). */
export function entryOf(row: SessionRow, operation: string, table: string): SessionEntry {
  return {
    sessionId: row.session_id,
    createdAt: row.created_at,
    accessedAt: row.accessed_at,
    messageCount: row.message_count,
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
