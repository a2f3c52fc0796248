import type { PoolClient } from "pg";
import { checkContextReport, contextReportCount, MAX_CONTEXT_REPORTS, type ContextReport } from "../context-report";
import type { ContextReportReadOptions } from "../context-report";
import { validateSessionId } from "../../messages/session-id";
import { parseStoredJson } from "../stored-json";
import type {
  ListSessionsOptions,
  SessionPage,
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { checkSessionUpdate } from "../session-metadata";
import { sessionPage, sessionPageQuery } from "../session-page-query";
import { entryOf, type SessionRow } from "./postgres-session-rows";
import { summaryCount } from "../summary-count";
import type { PostgresTables } from "./postgres-schema";
import type { PostgresSessionLeases } from "./postgres-session-leases";

type Query = <Row extends object>(
  operation: string,
  sessionId: string | undefined,
  sql: string,
  values: unknown[],
) => Promise<Row[]>;

/** Runs `body` in a transaction on one pooled connection (`PostgresStatements.transaction`). */
type Transaction = (operation: string, sessionId: string, body: (client: PoolClient) => Promise<void>) => Promise<void>;

/** What a fenced write needs of the store's session leases (`PostgresSessionLeases`). */
type Fencing = Pick<PostgresSessionLeases, "tokenOf" | "fence" | "lostError">;

/**
 * The records `PostgresMemoryStore` keeps beside a session's messages: its metadata (the
 * `<prefix>sessions` row's agent name and tags), its summaries (`<prefix>summaries`) and its
 * context reports (`<prefix>context_reports`: one transaction per save that inserts, only into a
 * session that exists and idempotent by report id, and drops the session's reports past
 * `MAX_CONTEXT_REPORTS`). Each write is fenced like an append by the lease this store holds on
 * the session.
 */
export class PostgresSessionRecords {
  constructor(
    private readonly tables: PostgresTables,
    private readonly query: Query,
    private readonly store: string,
    private readonly leases: Fencing,
    private readonly transaction: Transaction,
  ) {}

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    validateSessionId(sessionId);
    return this.newest<SummaryRecord>(
      this.tables.summaries,
      "getSummaries",
      sessionId,
      summaryCount(options, this.store),
      "summary",
    );
  }

  /**
   * Saves a summary in one statement (the session row upserted, the record inserted unless its id
   * is stored), fenced like an append by the lease this store holds on the session (`fence`): a
   * holder whose lease was taken over is refused with `SessionLockLostError`, nothing written.
   * Without a lease (a save outside a run) it is not fenced.
   */
  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    validateSessionId(sessionId);
    const t = this.tables;
    const rows = await this.query<{ ok: boolean }>(
      "saveSummary",
      sessionId,
      `WITH ${this.leases.fence(1, 2)},
       session AS (
         INSERT INTO ${t.sessions} AS s (session_id, created_at, accessed_at) SELECT $1, $3, $3 WHERE (SELECT ok FROM permitted)
         ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at)
         RETURNING session_id),
       inserted AS (
         INSERT INTO ${t.summaries} (session_id, summary_id, body) SELECT session_id, $4, $5 FROM session
         ON CONFLICT (session_id, summary_id) DO NOTHING)
       SELECT ok FROM permitted`,
      [sessionId, this.leases.tokenOf(sessionId), Date.now(), record.id, JSON.stringify(record)],
    );
    if (rows[0]?.ok !== true) throw this.leases.lostError("saveSummary", sessionId);
  }

  /**
   * Records a session's metadata (`agentName`, `tags`, a hand-set `title` that replaces any title,
   * the app's `metadata` replaced whole) in one statement, fenced as `saveSummary` is.
   */
  async updateSession(sessionId: string, update: SessionUpdate): Promise<void> {
    const metadata = checkSessionUpdate(update);
    validateSessionId(sessionId);
    const rows = await this.query<{ ok: boolean }>(
      "updateSession",
      sessionId,
      `WITH ${this.leases.fence(1, 2)},
       updated AS (
         INSERT INTO ${this.tables.sessions} AS s (session_id, created_at, accessed_at, agent_name, tags, title, metadata)
         SELECT $1, $3, $3, $4, $5, $6, $7 WHERE (SELECT ok FROM permitted)
         ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at),
           agent_name = COALESCE(EXCLUDED.agent_name, s.agent_name), tags = COALESCE(EXCLUDED.tags, s.tags),
           title = COALESCE(EXCLUDED.title, s.title), metadata = COALESCE(EXCLUDED.metadata, s.metadata))
       SELECT ok FROM permitted`,
      [
        sessionId,
        this.leases.tokenOf(sessionId),
        Date.now(),
        metadata.agentName ?? null,
        metadata.tags === undefined ? null : JSON.stringify(metadata.tags),
        metadata.title ?? null,
        metadata.metadataJson ?? null,
      ],
    );
    if (rows[0]?.ok !== true) throw this.leases.lostError("updateSession", sessionId);
  }

  /**
   * Creates the session owned by `userId` unless it exists, and reads its owner, in one statement
   * (fenced as `saveSummary` is). An existing row is locked by the no-op update, so its owner is
   * read as committed, even when another user's claim committed after this statement began: of two
   * users creating one session, exactly one owns it.
   */
  async claimSession(sessionId: string, userId: string): Promise<string | undefined> {
    validateSessionId(sessionId);
    const rows = await this.query<{ ok: boolean; owner: string | null }>(
      "claimSession",
      sessionId,
      `WITH ${this.leases.fence(1, 2)},
       claimed AS (
         INSERT INTO ${this.tables.sessions} AS s (session_id, created_at, accessed_at, user_id)
         SELECT $1, $3, $3, $4 WHERE (SELECT ok FROM permitted)
         ON CONFLICT (session_id) DO UPDATE SET created_at = s.created_at
         RETURNING s.user_id)
       SELECT (SELECT ok FROM permitted) AS ok, (SELECT user_id FROM claimed) AS owner`,
      [sessionId, this.leases.tokenOf(sessionId), Date.now(), userId],
    );
    if (rows[0]?.ok !== true) throw this.leases.lostError("claimSession", sessionId);
    return rows[0].owner ?? undefined;
  }

  /** A page of a user's sessions, by the `(user_id, accessed_at, session_id)` index from the cursor on. */
  async listSessions(options: ListSessionsOptions, select: string): Promise<SessionPage> {
    const { userId, limit, after } = sessionPageQuery(options);
    const order = `ORDER BY s.accessed_at DESC, s.session_id COLLATE "C" DESC LIMIT`;
    const rows = await this.query<SessionRow>(
      "listSessions",
      undefined,
      after
        ? `${select} WHERE s.user_id = $1 AND (s.accessed_at, s.session_id COLLATE "C") < ($2::bigint, $3::text COLLATE "C") ${order} $4`
        : `${select} WHERE s.user_id = $1 ${order} $2`,
      after ? [userId, after.accessedAt, after.sessionId, limit + 1] : [userId, limit + 1],
    );
    return sessionPage(
      rows.map((row) => entryOf(row, "listSessions", this.tables.sessions)),
      limit,
    );
  }

  /**
   * Saves a report in one short transaction. While this store holds the session's lease (a run's),
   * it writes only if the lease is still this holder's, as an append does (`fence`): a holder whose
   * lease was taken over is refused with `SessionLockLostError`, nothing written. Without a lease
   * (a save outside a run) it is not fenced.
   *
   * Its locks come in the order every writer of a session takes them (the lease row shared, then
   * the session row, then the session's rows in other tables: as `deleteMessagesFrom`; clearing
   * and pruning start at the session row), so no cycle can form. The session row, locked FOR
   * UPDATE, queues the session's saves one after another: the second statement, with a snapshot
   * taken once the lock is held, sees every report saved before it, so the insert and the trim
   * commit together and the session never holds more than `MAX_CONTEXT_REPORTS`, at any moment.
   */
  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    checkContextReport(sessionId, report, this.store);
    const { sessions, contextReports: reports } = this.tables;
    await this.transaction("saveContextReport", sessionId, async (client) => {
      const locked = await client.query<{ ok: boolean; present: boolean }>(
        `WITH ${this.leases.fence(1, 2)}
         SELECT ok, ok AND EXISTS (SELECT 1 FROM ${sessions} WHERE session_id = $1 FOR UPDATE) AS present FROM permitted`,
        [sessionId, this.leases.tokenOf(sessionId)],
      );
      if (locked.rows[0]?.ok !== true) throw this.leases.lostError("saveContextReport", sessionId);
      // Only into a session that exists.
      if (locked.rows[0].present !== true) return;
      // The DELETE sees the rows from before the INSERT: keeping max - 1 of them leaves max with the new one.
      await client.query(
        `WITH inserted AS (
           INSERT INTO ${reports} (session_id, report_id, body) VALUES ($1, $2, $3)
           ON CONFLICT (session_id, report_id) DO NOTHING RETURNING seq)
         DELETE FROM ${reports} WHERE session_id = $1 AND EXISTS (SELECT 1 FROM inserted)
           AND seq <= (SELECT seq FROM ${reports} WHERE session_id = $1 ORDER BY seq DESC OFFSET $4 LIMIT 1)`,
        [sessionId, report.id, JSON.stringify(report), MAX_CONTEXT_REPORTS - 1],
      );
    });
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    validateSessionId(sessionId);
    const count = contextReportCount(options, this.store);
    return this.newest<ContextReport>(this.tables.contextReports, "getContextReports", sessionId, count, "report");
  }

  /** A session's newest `count` records of a table (Infinity: all), oldest first, parsed. */
  private async newest<T>(
    table: string,
    operation: string,
    sessionId: string,
    count: number,
    record: string,
  ): Promise<T[]> {
    // LIMIT NULL is no limit.
    const rows = await this.query<{ body: string }>(
      operation,
      sessionId,
      `SELECT body FROM (SELECT seq, body FROM ${table} WHERE session_id = $1 ORDER BY seq DESC LIMIT $2) newest ORDER BY seq`,
      [sessionId, count === Infinity ? null : count],
    );
    const read = { store: this.store, operation, sessionId };
    return rows.map((row, index) => parseStoredJson<T>(row.body, { ...read, record: `${record} ${index}` }));
  }
}
