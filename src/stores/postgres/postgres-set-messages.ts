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
  /** The session's next sequence number: the number of messages given. */
  nextSeq: number;
  /** The messages to store (a repeated id left out), with their sequence numbers and stored bodies. */
  rows: { seq: number; id: string | null; body: string }[];
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
    [sessionId, Date.now(), history.nextSeq, history.preview ?? null],
  );
  await client.query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [sessionId]);
  await client.query(
    `INSERT INTO ${t.messages} (session_id, seq, message_id, body)
     SELECT $1, item.seq, item.id, item.body FROM unnest($2::bigint[], $3::text[], $4::text[]) AS item(seq, id, body)`,
    [sessionId, rows.map((row) => row.seq), rows.map((row) => row.id), rows.map((row) => row.body)],
  );
}
