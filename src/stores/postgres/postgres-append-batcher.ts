import type { AgentMessage } from "../../messages/agent-message";
import type { PostgresTables } from "./postgres-schema";
import { PostgresStatementBatcher } from "./postgres-statement-batcher";
import type { PostgresTurnSql } from "./postgres-turn-sql";
import { PENDING_SETTING, pendingJson, type PendingLedger } from "./postgres-usage-sql";

/** One `appendMessages` waiting for its statement. */
export interface PendingAppend {
  sessionId: string;
  /** The messages, repeated ids already left out; at least one. */
  messages: AgentMessage[];
  /** Their JSON, encoded before the append joins a batch (a value JSON cannot encode fails its own append alone). */
  bodies: string[];
  /** The lease token the write must hold (null: not fenced). */
  token: string | null;
  /** Also delete that lease, in the same transaction (a run's last append). */
  release: boolean;
  /** What the append records beside its messages when it stores one (its preview and usage), if anything. */
  ledger?: PendingLedger | undefined;
}

type Query = (sql: string, values: unknown[]) => Promise<{ session_id: string; ok: boolean }[]>;

/**
 * Group commit of a store's appends (see `PostgresStatementBatcher`): appends of different sessions
 * sent while one is in flight go together in one statement, one transaction, one WAL flush. Each
 * append keeps its own guarantees: its messages are written whole or not at all, idempotently by
 * id, fenced by its own lease (a refused one answers `false`, the others are written).
 */
export class PostgresAppendBatcher {
  private readonly batcher: PostgresStatementBatcher<PendingAppend, boolean>;

  constructor(
    private readonly tables: PostgresTables,
    private readonly sql: PostgresTurnSql,
    /** How the single-append statement fences (`PostgresSessionLeases.fence` / `fenceAndRelease`). */
    private readonly fences: {
      fence: (session: number, token: number) => string;
      fenceAndRelease: (session: number, token: number) => string;
      table: string;
    },
    private readonly query: Query,
    isConnectionError: (error: unknown) => boolean,
    maxInFlight: number,
  ) {
    this.batcher = new PostgresStatementBatcher(
      async (appends) => {
        const rows = appends.length === 1 ? await this.sendOne(appends[0]!) : await this.sendMany(appends);
        const ok = new Map(rows.map((row) => [row.session_id, row.ok]));
        return appends.map((append) => ok.get(append.sessionId) === true);
      },
      isConnectionError,
      maxInFlight,
    );
  }

  /** Appends; resolves to false when the write was refused because its lease is no longer the session's. */
  append(append: PendingAppend): Promise<boolean> {
    return this.batcher.submit(append);
  }

  private async sendOne(append: PendingAppend): Promise<{ session_id: string; ok: boolean }[]> {
    const fence = append.release && append.token !== null ? this.fences.fenceAndRelease(1, 5) : this.fences.fence(1, 5);
    const rows = await this.query(
      this.sql.append(fence),
      this.sql.appendValues(
        append.sessionId,
        append.messages,
        append.bodies,
        append.token,
        pendingJson([append.ledger]),
      ),
    );
    return [{ session_id: append.sessionId, ok: rows[0]?.ok === true }];
  }

  /**
   * One statement for appends of different sessions, in session order (rows are locked in one
   * order, whatever the batch). Per append: its lease locked FOR SHARE (or deleted, with
   * `release`) when it has a token, its session row upserted for the sequence numbers of its
   * messages whose ids the snapshot does not hold (as `PostgresTurnSql.append`, its arrays read
   * through sub-selects for the same reason), those inserted; the insert trigger counts them per session, and adds each session's own
   * preview and usage (`$9`, one JSON for the batch, keyed by session) once, to that session only.
   */
  private sendMany(appends: PendingAppend[]): Promise<{ session_id: string; ok: boolean }[]> {
    const t = this.tables;
    const locks = this.fences.table;
    const sorted = [...appends].sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
    const items = sorted.flatMap((append, index) =>
      append.messages.map((message, position) => ({
        index: index + 1,
        position: position + 1,
        id: message.id ?? null,
        body: append.bodies[position]!,
      })),
    );
    return this.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bool[]) WITH ORDINALITY AS i(session_id, token, release, ord)),
       lease AS (
         SELECT l.session_id FROM ${locks} l JOIN input i ON l.session_id = i.session_id AND l.token = i.token AND NOT i.release
         ORDER BY l.session_id FOR SHARE OF l),
       released AS (
         DELETE FROM ${locks} l USING input i WHERE l.session_id = i.session_id AND l.token = i.token AND i.release RETURNING l.session_id),
       fresh AS (
         SELECT item.ord, item.id, item.body, row_number() OVER (PARTITION BY item.ord ORDER BY item.position) AS position
         FROM unnest((SELECT $5::bigint[]), (SELECT $6::bigint[]), (SELECT $7::text[]), (SELECT $8::text[])) AS item(ord, position, id, body)
         JOIN input i ON i.ord = item.ord
         LEFT JOIN LATERAL (SELECT 1 AS found FROM ${t.messages} m WHERE m.session_id = i.session_id AND m.message_id = item.id LIMIT 1) stored ON true
         WHERE stored.found IS NULL),
       permitted AS (
         SELECT i.session_id, i.ord, (SELECT count(*) FROM fresh f WHERE f.ord = i.ord) AS n,
           (i.token IS NULL OR i.session_id IN (SELECT session_id FROM lease) OR i.session_id IN (SELECT session_id FROM released)) AS ok
         FROM input i),
       pending AS (SELECT set_config('${PENDING_SETTING}', $9::text, true)),
       session AS (
         INSERT INTO ${t.sessions} AS s (session_id, created_at, accessed_at, next_seq)
         SELECT p.session_id, $4::bigint, $4::bigint, p.n FROM permitted p, pending WHERE p.ok ORDER BY p.session_id
         ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at), next_seq = s.next_seq + EXCLUDED.next_seq
         RETURNING s.session_id, s.next_seq),
       inserted AS (
         INSERT INTO ${t.messages} (session_id, seq, message_id, body)
         SELECT p.session_id, s.next_seq - p.n + f.position - 1, f.id, f.body
         FROM fresh f
         JOIN permitted p ON p.ord = f.ord
         JOIN session s ON s.session_id = p.session_id
         ON CONFLICT (session_id, message_id) DO NOTHING)
       SELECT session_id, ok FROM permitted`,
      [
        sorted.map((append) => append.sessionId),
        sorted.map((append) => append.token),
        sorted.map((append) => append.release && append.token !== null),
        Date.now(),
        items.map((item) => item.index),
        items.map((item) => item.position),
        items.map((item) => item.id),
        items.map((item) => item.body),
        pendingJson(sorted.map((append) => append.ledger)),
      ],
    );
  }
}
