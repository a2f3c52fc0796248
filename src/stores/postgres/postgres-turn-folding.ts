import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
import type { MessageTail, SessionLockOptions } from "../memory-store";
import { tailLimit } from "../tail-limit";
import type { TurnFolding } from "../built-in-store-parts";
import type { AppendOptions } from "../usage-totals";
import type { PostgresSessionLeases } from "./postgres-session-leases";
import { PostgresStatementBatcher } from "./postgres-statement-batcher";
import { postgresStoreError } from "./postgres-statements";
import { uniqueById, type PostgresTurnSql, type TailRow } from "./postgres-turn-sql";

/** One run's take of a session's lease with its tail read. */
interface LeaseTake {
  sessionId: string;
  token: string;
  limit: number;
}

/** Runs one statement once the tables are ready; its failure is PostgreSQL's own (not yet a StoreError). */
type Query = <Row extends object>(sql: string, values: unknown[]) => Promise<Row[]>;

/** The rows a take read: the tail when the snapshot showed no holder (`TailRow[]`), null to read it again, undefined when the lease is held elsewhere. */
type TakeRows = TailRow[] | null | undefined;

/**
 * A `PostgresMemoryStore`'s folded turn statements (see `TurnFolding`): a run takes its lease and
 * reads its tail in one statement, and its last append releases the lease in the same statement,
 * so a turn is 3 statements (lock and tail, the user message, the rest of the turn and the release)
 * instead of 5; lease takes of different sessions made together share one statement, as appends do
 * (`PostgresStatementBatcher`). Each keeps what the separate statements guarantee: the tail is used only when the
 * statement's snapshot shows that no one held the session (else it is read again); the releasing
 * append is fenced by the lease it deletes, in the append's own transaction.
 */
export class PostgresTurnFolding implements TurnFolding {
  /** Lease takes of different sessions sent together go in one statement (see `takeMany`). */
  private readonly takes: PostgresStatementBatcher<LeaseTake, TakeRows>;

  constructor(
    private readonly leases: PostgresSessionLeases,
    private readonly sql: PostgresTurnSql,
    private readonly query: Query,
    private readonly store: {
      readTail(sessionId: string, limit: number): Promise<MessageTail>;
      /** The store's append of messages without repeated ids; `release`: also release the lease held. Resolves to whether it released. */
      append(
        sessionId: string,
        messages: AgentMessage[],
        release: boolean,
        options: AppendOptions | undefined,
      ): Promise<boolean>;
    },
    isConnectionError: (error: unknown) => boolean,
  ) {
    this.takes = new PostgresStatementBatcher<LeaseTake, TakeRows>(
      async (takes) => (takes.length === 1 ? [await this.takeOne(takes[0]!)] : await this.takeMany(takes)),
      isConnectionError,
      1,
    );
  }

  /**
   * Takes the lease and reads the tail in one statement. Undefined: the lease is held elsewhere. Else
   * one row per message read (or one, without messages), each saying whether the snapshot read is
   * the session as a read after the lock would see it: no holder in the snapshot (`prior`), and the
   * session row unchanged since it was taken (`latest` locks the row after the lease is taken and
   * so sees its newest version: a holder that came and went between the snapshot and the lease
   * would have changed it, as every write of messages does). Null: read the tail again after the
   * lock (the snapshot may miss a holder's writes, or the session is not stored yet).
   */
  private async takeOne({ sessionId, token, limit }: LeaseTake): Promise<TakeRows> {
    const t = this.sql.tables;
    const rows = await this.query<TailRow & { fresh: boolean | null }>(
      `WITH ${this.leases.acquireSql(1, 2, 3)},
       latest AS (SELECT s.xmin::text AS version FROM ${t.sessions} s, acquired WHERE s.session_id = $1 FOR SHARE OF s)
       ${this.sql.tail(4, `FROM acquired LEFT JOIN ${t.sessions} s ON s.session_id = $1`, { columns: ", (NOT EXISTS (SELECT 1 FROM prior) AND s.xmin::text = (SELECT version FROM latest)) AS fresh" })}`,
      [sessionId, token, this.leases.leaseMs, limit === Infinity ? null : limit],
    );
    if (rows.length === 0) return undefined;
    return rows[0]!.fresh === true ? rows : null;
  }

  /** `takeOne` for takes of different sessions, in one statement: each session's rows as `takeOne`'s, marked with its id. */
  private async takeMany(takes: LeaseTake[]): Promise<TakeRows[]> {
    const t = this.sql.tables;
    const rows = await this.query<TailRow & { session_id: string; fresh: boolean | null }>(
      `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) AS i(session_id, token, tail_limit)),
       ${this.leases.acquireManySql(4)},
       latest AS (SELECT s.session_id, s.xmin::text AS version FROM ${t.sessions} s JOIN acquired a ON s.session_id = a.session_id ORDER BY s.session_id FOR SHARE OF s)
       SELECT a.session_id, s.message_count AS total, recent.body,
         (NOT EXISTS (SELECT 1 FROM prior p WHERE p.session_id = a.session_id) AND s.xmin::text = (SELECT v.version FROM latest v WHERE v.session_id = a.session_id)) AS fresh
       FROM acquired a JOIN input i ON i.session_id = a.session_id
       LEFT JOIN ${t.sessions} s ON s.session_id = a.session_id
       LEFT JOIN LATERAL (SELECT m.body, m.seq FROM ${t.messages} m WHERE m.session_id = s.session_id ORDER BY m.seq DESC LIMIT i.tail_limit) recent ON true
       ORDER BY a.session_id, recent.seq DESC`,
      [
        takes.map((take) => take.sessionId),
        takes.map((take) => take.token),
        takes.map((take) => (take.limit === Infinity ? null : take.limit)),
        this.leases.leaseMs,
      ],
    );
    const bySession = new Map<string, typeof rows>();
    for (const row of rows) {
      const own = bySession.get(row.session_id);
      if (own) own.push(row);
      else bySession.set(row.session_id, [row]);
    }
    return takes.map(({ sessionId }) => {
      const own = bySession.get(sessionId);
      if (own === undefined) return undefined;
      return own[0]!.fresh === true ? own : null;
    });
  }

  async lockSessionReadingTail(
    sessionId: string,
    options: SessionLockOptions,
    limit: number,
  ): Promise<{ release: () => Promise<void>; tail?: MessageTail }> {
    validateSessionId(sessionId);
    const count = tailLimit(limit, "PostgresMemoryStore", "lockSession");
    const { release, value } = await this.leases.acquireWith(sessionId, options, (token) =>
      // A failure of a shared statement names this take's session (a failed take's lease is released by `acquireWith`).
      this.takes.submit({ sessionId, token, limit: count }).catch((error: unknown) => {
        throw postgresStoreError("PostgresMemoryStore", "lockSession", sessionId, error);
      }),
    );
    try {
      // The tail is parsed here, by its own run: a bad record fails this run alone, and its lease is released.
      if (value !== null) return { release, tail: this.sql.parseTail(value, sessionId, "getMessageTail") };
      // The snapshot may miss a holder's writes: read the tail after the lock.
      return { release, tail: await this.store.readTail(sessionId, count) };
    } catch (error) {
      await release().catch(() => {});
      throw error;
    }
  }

  async appendMessagesAndUnlock(
    sessionId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ): Promise<boolean> {
    validateSessionId(sessionId);
    const fresh = uniqueById(messages);
    if (fresh.length === 0) return false; // the lock's release function releases it
    return this.store.append(sessionId, fresh, true, options);
  }
}
