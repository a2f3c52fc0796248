// PostgresMemoryStore's thread methods: message ranges, the usage ledger's reads, generated titles
// and deleting a user's data.
import type { PoolClient } from "pg";
import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
import { checkTitle } from "../session-metadata";
import { parseStoredMessage } from "../stored-json";
import { messageRange } from "../tail-limit";
import {
  checkUsage,
  checkUsageQuery,
  utcDay,
  type UsageQuery,
  type UsageTotals,
  type UserDataDeletion,
} from "../usage-totals";
import type { PostgresSessionLeases } from "./postgres-session-leases";
import type { PostgresTables } from "./postgres-schema";
import {
  addParamToSession,
  ownerTotalsCtes,
  totalsOfRow,
  USAGE_COLUMNS,
  usageFromParam,
  usageValues,
} from "./postgres-usage-sql";

type Query = <Row extends object>(
  operation: string,
  sessionId: string | undefined,
  sql: string,
  values: unknown[],
) => Promise<Row[]>;

/** Runs `body` in a transaction on one pooled connection (`PostgresStatements.transaction`). */
type Transaction = <T>(
  operation: string,
  sessionId: string | undefined,
  body: (client: PoolClient) => Promise<T>,
) => Promise<T>;

/** Sessions deleted per transaction by `deleteUserData`. */
const DELETE_BATCH = 100;

/**
 * The thread methods of `PostgresMemoryStore`. A range is read by the messages' primary key
 * `(session_id, seq)`. A session's numbers are dense (appends number only new messages, a cut
 * reuses the numbers it frees, `setMessages` numbers from 0): the range is `first + start` to
 * `first + end`. A session with gaps (an id stored by a concurrent append, tables written by
 * older versions) is read by finding the range's first message by skipping key entries (no
 * message body) from whichever end of the session is nearer, then reading the range's rows.
 */
export class PostgresThreads {
  constructor(
    private readonly tables: PostgresTables,
    private readonly query: Query,
    private readonly transaction: Transaction,
    private readonly store: string,
    private readonly leases: Pick<PostgresSessionLeases, "tokenOf" | "fence" | "lostError">,
  ) {}

  async getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    const range = messageRange(start, end, this.store);
    const { sessions, messages } = this.tables;
    // `stop`: the range's end within the session. Numbers dense (the last minus the first is the
    // count minus one, both read from the key): the range's numbers are known. Else the first
    // message is found by skipping key entries from the nearer end (`n - stop` lie after the range).
    const skipping = (ascending: boolean) => `(SELECT m.seq, m.body FROM ${messages} m
        WHERE (SELECT NOT dense AND ${ascending ? "$2::bigint <= n - stop" : "$2::bigint > n - stop"} FROM bounds) AND m.session_id = $1
          AND m.seq ${ascending ? ">=" : "<="} (SELECT seq FROM ${messages} WHERE session_id = $1
            ORDER BY seq ${ascending ? "OFFSET $2" : "DESC OFFSET (SELECT n - stop FROM bounds)"} LIMIT 1)
        ORDER BY m.seq ${ascending ? "" : "DESC"} LIMIT (SELECT GREATEST(stop - $2::bigint, 0) FROM bounds))`;
    const rows = await this.query<{ seq: string; body: string }>(
      "getMessageRange",
      sessionId,
      `WITH ends AS (
         SELECT message_count AS n, LEAST($3::bigint, message_count) AS stop,
           (SELECT min(seq) FROM ${messages} WHERE session_id = $1) AS first,
           (SELECT max(seq) FROM ${messages} WHERE session_id = $1) AS last
         FROM ${sessions} WHERE session_id = $1),
       bounds AS (SELECT n, stop, first, last - first + 1 = n AS dense FROM ends)
       SELECT body FROM (
         (SELECT m.seq, m.body FROM ${messages} m, bounds b
          WHERE b.dense AND m.session_id = $1 AND m.seq >= b.first + $2::bigint AND m.seq < b.first + b.stop)
         UNION ALL ${skipping(true)} UNION ALL ${skipping(false)}) picked ORDER BY seq`,
      [sessionId, range.start, range.end],
    );
    return rows.map((row, index) =>
      parseStoredMessage(row.body, {
        store: this.store,
        operation: "getMessageRange",
        sessionId,
        record: `message ${range.start + index}`,
      }),
    );
  }

  /** A session's totals (its row), a user's running totals, or the sum of the user's days from `since`'s UTC day. */
  async getUsage(query: UsageQuery): Promise<UsageTotals> {
    checkUsageQuery(query);
    const columns = USAGE_COLUMNS.join(", ");
    if ("sessionId" in query) {
      const rows = await this.query<Record<string, unknown>>(
        "getUsage",
        query.sessionId,
        `SELECT ${columns} FROM ${this.tables.sessions} WHERE session_id = $1`,
        [query.sessionId],
      );
      return totalsOfRow(rows[0]);
    }
    if (query.since === undefined) {
      const rows = await this.query<Record<string, unknown>>(
        "getUsage",
        undefined,
        `SELECT ${columns} FROM ${this.tables.userUsage} WHERE user_id = $1`,
        [query.userId],
      );
      return totalsOfRow(rows[0]);
    }
    const since = Math.max(query.since, -8.64e15);
    const rows = await this.query<Record<string, unknown>>(
      "getUsage",
      undefined,
      `SELECT ${USAGE_COLUMNS.map((column) => `sum(${column}) AS ${column}`).join(", ")}
       FROM ${this.tables.userUsageDays} WHERE user_id = $1 AND day >= $2::date`,
      [query.userId, utcDay(Math.min(since, 8.64e15))],
    );
    return totalsOfRow(rows[0]);
  }

  /**
   * Sets a generated title in one statement: only on a session that exists and has no title, adding
   * `usage` to the session's totals in the same update and to its owner's in the same statement,
   * fenced like `updateSession`. Resolves to whether it was written.
   */
  async titleSession(sessionId: string, title: string, usage: UsageTotals | undefined): Promise<boolean> {
    validateSessionId(sessionId);
    const trimmed = checkTitle(title);
    if (usage !== undefined) checkUsage(usage, `${this.store}.titleSession`);
    const rows = await this.query<{ ok: boolean; titled: boolean }>(
      "updateSession",
      sessionId,
      `WITH ${this.leases.fence(1, 2)},
       titled AS (
         UPDATE ${this.tables.sessions} s SET title = $3, ${addParamToSession(4)}
         WHERE s.session_id = $1 AND s.title IS NULL AND (SELECT ok FROM permitted)
         RETURNING s.user_id, ${usageFromParam(4)}),
       ${ownerTotalsCtes(this.tables, "titled", "$5::date")}
       SELECT (SELECT ok FROM permitted) AS ok, EXISTS (SELECT 1 FROM titled) AS titled`,
      [
        sessionId,
        this.leases.tokenOf(sessionId),
        trimmed,
        usage === undefined ? null : usageValues(usage),
        utcDay(Date.now()),
      ],
    );
    if (rows[0]?.ok !== true) throw this.leases.lostError("updateSession", sessionId);
    return rows[0].titled;
  }

  /**
   * Deletes a user's sessions a batch at a time, each batch one transaction (their leases first, as
   * every writer takes a lease before the session row; then the session rows, which wait for an
   * append in flight; then their messages, summaries, context reports and fact scopes), then the
   * user's facts and totals in a last one. A crash between two leaves what a retry finishes. A run
   * holding a deleted session's lease has its later fenced writes refused (`SessionLockLostError`);
   * an unfenced write after the deletion creates a new session without an owner.
   */
  async deleteUserData(userId: string): Promise<UserDataDeletion> {
    validateSessionId(userId, "userId");
    const t = this.tables;
    const deleted: UserDataDeletion = { sessions: 0, messages: 0, facts: 0 };
    for (;;) {
      const batch = await this.transaction("deleteUserData", undefined, async (client) => {
        const listed = await client.query<{ session_id: string }>(
          `SELECT session_id FROM ${t.sessions} WHERE user_id = $1 LIMIT ${DELETE_BATCH}`,
          [userId],
        );
        if (listed.rows.length === 0) return undefined;
        const ids = listed.rows.map((row) => row.session_id);
        await client.query(`DELETE FROM ${t.locks} WHERE session_id = ANY($1::text[])`, [ids]);
        const gone = await client.query<{ session_id: string }>(
          `DELETE FROM ${t.sessions} WHERE session_id = ANY($1::text[]) AND user_id = $2 RETURNING session_id`,
          [ids, userId],
        );
        const removed = gone.rows.map((row) => row.session_id);
        const count = async (sql: string, values: unknown[]) => (await client.query(sql, values)).rowCount ?? 0;
        const messages = await count(`DELETE FROM ${t.messages} WHERE session_id = ANY($1::text[])`, [removed]);
        await client.query(`DELETE FROM ${t.summaries} WHERE session_id = ANY($1::text[])`, [removed]);
        await client.query(`DELETE FROM ${t.contextReports} WHERE session_id = ANY($1::text[])`, [removed]);
        const facts = await count(`DELETE FROM ${t.facts} WHERE scope_id = ANY($1::text[])`, [
          removed.map((id) => `session:${id}`),
        ]);
        return { sessions: removed.length, messages, facts };
      });
      if (batch === undefined) break;
      deleted.sessions += batch.sessions;
      deleted.messages += batch.messages;
      deleted.facts += batch.facts;
    }
    deleted.facts += await this.transaction("deleteUserData", undefined, async (client) => {
      const facts = await client.query(`DELETE FROM ${t.facts} WHERE scope_id = $1`, [`user:${userId}`]);
      await client.query(`DELETE FROM ${t.userUsage} WHERE user_id = $1`, [userId]);
      await client.query(`DELETE FROM ${t.userUsageDays} WHERE user_id = $1`, [userId]);
      return facts.rowCount ?? 0;
    });
    return deleted;
  }
}
