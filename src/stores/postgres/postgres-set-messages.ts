// PostgresMemoryStore's `setMessages`, in one transaction: fenced by the holder's lease like an
// append, the session row upserted (and so locked) before its messages are replaced.
import type { PoolClient } from "pg";
import type { PostgresTables } from "./postgres-schema";
import type { PostgresSessionLeases } from "./postgres-session-leases";

/** What `setPostgresMessages` writes. */
export interface PostgresHistory {
  tables: PostgresTables;
  leases: Pick<PostgresSessionLeases, "tokenOf" | "fence" | "lostError">;
  sessionId: string;
  /** The messages to store (a repeated id left out), as their ids and stored bodies: numbered 0, 1, 2… */
  rows: { id: string | null; body: string }[];
  /** `previewOf` the messages (undefined: none has text, and the session has no preview). */
  preview: string | undefined;
}

/** Inside a transaction: replaces the session's messages (and its preview); a `SessionLockLostError` when the holder's lease was taken over. */
export async function setPostgresMessages(client: PoolClient, history: PostgresHistory): Promise<void> {
  const { tables: t, leases, sessionId, rows } = history;
  const fenced = await client.query<{ ok: boolean }>(`WITH ${leases.fence(1, 2)} SELECT ok FROM permitted`, [
    sessionId,
    leases.tokenOf(sessionId),
  ]);
  if (fenced.rows[0]?.ok !== true) throw leases.lostError("setMessages", sessionId);
  await client.query(
    `INSERT INTO ${t.sessions} AS s (session_id, created_at, accessed_at, next_seq, preview) VALUES ($1, $2, $2, $3, $4)
     ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at), next_seq = $3,
       preview = EXCLUDED.preview`,
    [sessionId, Date.now(), rows.length, history.preview ?? null],
  );
  await client.query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [sessionId]);
  await client.query(
    `INSERT INTO ${t.messages} (session_id, seq, message_id, body)
     SELECT $1, item.ord - 1, item.id, item.body FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS item(id, body, ord)`,
    [sessionId, rows.map((row) => row.id), rows.map((row) => row.body)],
  );
}
