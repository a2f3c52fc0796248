// The session rows PostgresMemoryStore reads back (getSession, entries, listSessions), as SessionEntry.
import type { SessionEntry } from "../memory-store";
import { parseSessionTags } from "../parse-session-tags";
import type { SessionMetadata } from "../session-metadata";
import { parseStoredJson } from "../stored-json";
import { totalsOfRow, USAGE_COLUMNS } from "./postgres-usage-sql";

/** A row of the sessions query (`sessionSelect`): numbers come back from `pg` as text. */
export interface SessionRow {
  session_id: string;
  created_at: string;
  accessed_at: string;
  agent_name: string | null;
  tags: string | null;
  message_count: string;
  user_id: string | null;
  title: string | null;
  metadata: string | null;
  preview: string | null;
}

/** The columns of a `SessionRow`, selected from the sessions table as `s`. */
export const SESSION_COLUMNS = [
  "session_id",
  "created_at",
  "accessed_at",
  "agent_name",
  "tags",
  "message_count",
  "user_id",
  "title",
  "metadata",
  "preview",
  ...USAGE_COLUMNS,
]
  .map((column) => `s.${column}`)
  .join(", ");

/** A session row as the SessionEntry the store returns (`table` names where a bad tags or metadata value was read). */
export function entryOf(row: SessionRow, operation: string, table: string): SessionEntry {
  const where = { store: "PostgresMemoryStore", operation, sessionId: row.session_id };
  return {
    sessionId: row.session_id,
    createdAt: Number(row.created_at),
    accessedAt: Number(row.accessed_at),
    messageCount: Number(row.message_count),
    ...(row.user_id == null ? {} : { userId: row.user_id }),
    ...(row.agent_name === null ? {} : { agentName: row.agent_name }),
    ...(row.tags === null ? {} : { tags: parseSessionTags(row.tags, { ...where, path: table }) }),
    ...(row.title == null ? {} : { title: row.title }),
    ...(row.metadata == null
      ? {}
      : { metadata: parseStoredJson<SessionMetadata>(row.metadata, { ...where, record: "session metadata" }) }),
    usage: totalsOfRow(row as unknown as Record<string, unknown>),
    ...(row.preview == null ? {} : { preview: row.preview }),
  };
}
