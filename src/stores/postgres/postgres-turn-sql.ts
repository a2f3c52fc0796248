import type { AgentMessage } from "../../messages/agent-message";
import type { MessageTail } from "../memory-store";
import { encodeStoredMessageJson, parseStoredMessage } from "../stored-json";
import type { PostgresTables } from "./postgres-schema";
import { PENDING_SETTING } from "./postgres-usage-sql";

/** A row of a tail read: the session's count, and one message body (null for a session without messages, or limit 0). */
export interface TailRow {
  total: string | null;
  body: string | null;
}

/**
 * The SQL a turn's statements share (the tail read, the append), so the store's plain methods and
 * its folded ones (`PostgresTurnFolding`) run the same statement bodies.
 */
export class PostgresTurnSql {
  constructor(
    readonly tables: PostgresTables,
    private readonly store: string,
  ) {}

  /**
   * The tail of a session, `$limit` messages (null: all), newest first, each row carrying the count
   * (and `columns`), selected from `source` (`FROM …`, in which the session row is `s`) and
   * filtered by `where`; a session without messages gives one row whose body is null.
   */
  tail(limit: number, source: string, options: { where?: string; columns?: string } = {}): string {
    const t = this.tables;
    return `SELECT s.message_count AS total, recent.body${options.columns ?? ""}
       ${source}
       LEFT JOIN LATERAL (SELECT m.body, m.seq FROM ${t.messages} m WHERE m.session_id = s.session_id ORDER BY m.seq DESC LIMIT $${limit}) recent ON true
       ${options.where ?? ""}
       ORDER BY recent.seq DESC`;
  }

  /** The messages of tail rows, oldest first, each parsed at the boundary. */
  parseTail(rows: TailRow[], sessionId: string, operation: string): MessageTail {
    const total = rows[0]?.total == null ? 0 : Number(rows[0].total);
    const bodies = rows.flatMap((row) => (row.body === null ? [] : [row.body])).reverse();
    const messages = bodies.map((body, index) =>
      parseStoredMessage(body, {
        store: this.store,
        operation,
        sessionId,
        record: `message ${total - bodies.length + index}`,
      }),
    );
    return { messages, total };
  }

  /**
   * An append to session `$1`: `$2` now, `$3` the messages' ids, `$4` their bodies, written only
   * when the CTE `permitted` (from `fence`, which `fenceCtes` defines) is ok. The upsert locks the
   * session row until the statement commits, so appends to one session take their sequence numbers
   * one after another. Numbers go only to the messages whose ids the statement's snapshot does not
   * hold (one probe of the `(session_id, message_id)` key per message, never a read of the session;
   * the arrays are read through sub-selects so that a plan for the given values costs what the
   * generic plan of the prepared statement does, which PostgreSQL then keeps instead of planning
   * every append again: 0.3 ms against 0.9 ms a statement, measured), so a retried append leaves no gap and a session's numbers stay dense (`getMessageRange`
   * reads a range by number then); an id stored by an append that committed while this one waited
   * for the row is skipped all the same (`ON CONFLICT`), leaving a gap that reads still handle.
   * Known limit: an id the snapshot holds that a cut or `setMessages` deleted while this append
   * waited for the row is skipped too, as if stored; only writes made without the session's lock
   * can meet this (a run holds it, so its appends and cuts never overlap). The insert trigger counts only the rows inserted. `$6` is the JSON of what the append records
   * beside its messages (`pendingJson`: its preview and usage, or null), handed to the insert
   * trigger through a transaction-local setting: the trigger adds it in its update of the session
   * row only when a row was inserted, so a retried append adds nothing. Selects `ok`.
   */
  append(fenceCtes: string): string {
    const t = this.tables;
    return `WITH ${fenceCtes},
       pending AS (SELECT set_config('${PENDING_SETTING}', $6::text, true)),
       fresh AS (
         SELECT item.id, item.body, row_number() OVER (ORDER BY item.ord) AS ord
         FROM unnest((SELECT $3::text[]), (SELECT $4::text[])) WITH ORDINALITY AS item(id, body, ord)
         LEFT JOIN LATERAL (SELECT 1 AS found FROM ${t.messages} m WHERE m.session_id = $1 AND m.message_id = item.id LIMIT 1) stored ON true
         WHERE stored.found IS NULL),
       session AS (
         INSERT INTO ${t.sessions} AS s (session_id, created_at, accessed_at, next_seq)
         SELECT $1::text, $2::bigint, $2::bigint, (SELECT count(*) FROM fresh) FROM permitted, pending WHERE permitted.ok
         ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at), next_seq = s.next_seq + EXCLUDED.next_seq
         RETURNING s.next_seq - (SELECT count(*) FROM fresh) AS first_seq),
       inserted AS (
         INSERT INTO ${t.messages} (session_id, seq, message_id, body)
         SELECT $1, session.first_seq + fresh.ord - 1, fresh.id, fresh.body FROM session, fresh
         ON CONFLICT (session_id, message_id) DO NOTHING)
       SELECT ok FROM permitted`;
  }

  /** The values of `append` ($1–$4) for the messages and their JSON (`encode`), then `token` ($5) and `pending` ($6). */
  appendValues(
    sessionId: string,
    messages: AgentMessage[],
    bodies: string[],
    token: string | null,
    pending: string | null,
  ): unknown[] {
    return [sessionId, Date.now(), messages.map((message) => message.id ?? null), bodies, token, pending];
  }

  /** The JSON of messages to store; one JSON cannot encode is a StoreError naming it and its session. */
  encode(sessionId: string, messages: AgentMessage[], operation: string): string[] {
    return messages.map((message, index) =>
      encodeStoredMessageJson(message, { store: this.store, operation, sessionId, record: `message ${index}` }),
    );
  }
}

/** The messages with a repeated id left out (the first occurrence kept). */
export function uniqueById(messages: AgentMessage[]): AgentMessage[] {
  const seen = new Set<string>();
  return messages.filter((message) => {
    if (message.id === undefined) return true;
    if (seen.has(message.id)) return false;
    seen.add(message.id);
    return true;
  });
}
