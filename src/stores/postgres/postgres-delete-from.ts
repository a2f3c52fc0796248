// PostgresMemoryStore's `deleteMessagesFrom` (and its delete-and-append), in one transaction:
// fenced by the holder's lease like an append, the session row locked as an append locks it.
import type { PoolClient } from "pg";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { summariesAfterCut } from "../history-cut";
import type { SummaryRecord } from "../memory-store";
import { previewOf } from "../session-preview";
import { parseStoredJson, parseStoredMessage } from "../stored-json";
import { utcDay } from "../usage-totals";
import { addParamToSession, ownerTotalsCtes, usageFromParam } from "./postgres-usage-sql";
import type { PostgresTables } from "./postgres-schema";
import type { PostgresSessionLeases } from "./postgres-session-leases";

/** What `cutPostgresMessages` works on. */
export interface PostgresCut {
  store: string;
  tables: PostgresTables;
  leases: PostgresSessionLeases;
  sessionId: string;
  messageId: string;
  /** The messages to append after the cut (ids unique), as their ids and stored bodies. */
  appended: { id: string | null; body: string }[];
  /** `previewOf` the appended messages (undefined: none has text, the preview comes from what is kept). */
  preview: string | undefined;
  /** The usage to add to the ledger (`usageValues`), if any: a replace always writes, so always adds it. */
  usage: number[] | undefined;
}

/** Messages read per step when the preview is recomputed from the kept history. */
const PREVIEW_PAGE = 20;

/**
 * Inside a transaction: deletes the session's messages from `messageId` on and the summaries
 * covering them, then appends `appended` after what is kept. Throws a `SessionLockLostError` when
 * the holder's lease was taken over, a `MessageNotFoundError` when the session has no such
 * message; nothing is written for either.
 */
export async function cutPostgresMessages(client: PoolClient, cut: PostgresCut): Promise<void> {
  const { tables: t, sessionId } = cut;
  const fenced = await client.query<{ ok: boolean }>(`WITH ${cut.leases.fence(1, 2)} SELECT ok FROM permitted`, [
    sessionId,
    cut.leases.tokenOf(sessionId),
  ]);
  if (fenced.rows[0]?.ok !== true) throw cut.leases.lostError("deleteMessagesFrom", sessionId);
  // The session row first, as appends take it: they wait for this cut, and it for them.
  const session = await client.query<{ next_seq: string }>(
    `SELECT next_seq FROM ${t.sessions} WHERE session_id = $1 FOR UPDATE`,
    [sessionId],
  );
  const target = await client.query<{ seq: string }>(
    `SELECT seq FROM ${t.messages} WHERE session_id = $1 AND message_id = $2`,
    [sessionId, cut.messageId],
  );
  if (session.rows.length === 0 || target.rows.length === 0)
    throw new MessageNotFoundError({ sessionId, messageId: cut.messageId });
  const deleted = await client.query<{ message_id: string | null }>(
    `DELETE FROM ${t.messages} WHERE session_id = $1 AND seq >= $2 RETURNING message_id`,
    [sessionId, target.rows[0]!.seq],
  );
  const removed = new Set(deleted.rows.flatMap((row) => (row.message_id === null ? [] : [row.message_id])));
  const counted = await client.query<{ message_count: string }>(
    `SELECT message_count FROM ${t.sessions} WHERE session_id = $1`,
    [sessionId],
  );
  const kept = Number(counted.rows[0]?.message_count ?? 0);
  const summaryRows = await client.query<{ summary_id: string; body: string }>(
    `SELECT summary_id, body FROM ${t.summaries} WHERE session_id = $1`,
    [sessionId],
  );
  const summaries = summaryRows.rows.map((row) =>
    parseStoredJson<SummaryRecord>(row.body, {
      store: cut.store,
      operation: "deleteMessagesFrom",
      sessionId,
      record: `summary "${row.summary_id}"`,
    }),
  );
  const valid = new Set(summariesAfterCut(summaries, kept, removed).map((summary) => summary.id));
  const stale = summaries.filter((summary) => !valid.has(summary.id)).map((summary) => summary.id);
  if (stale.length > 0)
    await client.query(`DELETE FROM ${t.summaries} WHERE session_id = $1 AND summary_id = ANY($2::text[])`, [
      sessionId,
      stale,
    ]);
  // The appended messages take the numbers of the first ones deleted (all numbers from there on are
  // free now), so a session's numbers stay dense for `getMessageRange`.
  const next = Number(target.rows[0]!.seq);
  const preview = cut.preview ?? (await keptPreview(client, cut));
  if (cut.appended.length > 0)
    await client.query(
      `INSERT INTO ${t.messages} (session_id, seq, message_id, body)
       SELECT $1, $2::bigint + item.ord - 1, item.id, item.body
       FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS item(id, body, ord)`,
      [sessionId, next, cut.appended.map((row) => row.id), cut.appended.map((row) => row.body)],
    );
  await client.query(
    `WITH updated AS (
       UPDATE ${t.sessions} s SET next_seq = $2, accessed_at = GREATEST(s.accessed_at, $3), preview = $4, ${addParamToSession(5)}
       WHERE s.session_id = $1
       RETURNING s.user_id, ${usageFromParam(5)}),
     ${ownerTotalsCtes(t, "updated", "$6::date")}
     SELECT 1`,
    [sessionId, next + cut.appended.length, Date.now(), preview ?? null, cut.usage ?? null, utcDay(Date.now())],
  );
}

/** The preview of the history the cut keeps: `previewOf` its last messages, read a page at a time until one has text. */
async function keptPreview(client: PoolClient, cut: PostgresCut): Promise<string | undefined> {
  let before: string | null = null;
  for (;;) {
    const page: { rows: { seq: string; body: string }[] } = await client.query<{ seq: string; body: string }>(
      `SELECT seq, body FROM ${cut.tables.messages} WHERE session_id = $1 AND ($2::bigint IS NULL OR seq < $2::bigint)
       ORDER BY seq DESC LIMIT ${PREVIEW_PAGE}`,
      [cut.sessionId, before],
    );
    const messages = page.rows
      .map((row) =>
        parseStoredMessage(row.body, {
          store: cut.store,
          operation: "deleteMessagesFrom",
          sessionId: cut.sessionId,
          record: `message at sequence ${row.seq}`,
        }),
      )
      .reverse();
    const preview = previewOf(messages);
    if (preview !== undefined || page.rows.length < PREVIEW_PAGE) return preview;
    before = page.rows.at(-1)!.seq;
  }
}
