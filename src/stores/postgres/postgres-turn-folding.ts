import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
import type { MessageTail, SessionLockOptions } from "../memory-store";
import { tailLimit } from "../tail-limit";
import type { TurnFolding } from "../turn-folding";
import type { PostgresSessionLeases } from "./postgres-session-leases";
import { uniqueById, type PostgresTurnSql, type TailRow } from "./postgres-turn-sql";

type Run = <Row extends object>(operation: string, sessionId: string, sql: string, values: unknown[]) => Promise<Row[]>;

/**
 * A `PostgresMemoryStore`'s folded turn statements (see `TurnFolding`): a run takes its lease and
 * reads its tail in one statement, and its last append releases the lease in the same statement,
 * so a turn is 3 statements (lock and tail, the user message, the rest of the turn and the release)
 * instead of 5. Each keeps what the separate statements guarantee: the tail is used only when the
 * statement's snapshot shows that no one held the session (else it is read again); the releasing
 * append is fenced by the lease it deletes, in the append's own transaction.
 */
export class PostgresTurnFolding implements TurnFolding {
  constructor(
    private readonly leases: PostgresSessionLeases,
    private readonly sql: PostgresTurnSql,
    private readonly run: Run,
    private readonly store: {
      readTail(sessionId: string, limit: number): Promise<MessageTail>;
      /** The store's append of messages without repeated ids; `release`: also release the lease held. Resolves to whether it released. */
      append(sessionId: string, messages: AgentMessage[], release: boolean): Promise<boolean>;
    },
  ) {}

  async lockSessionReadingTail(sessionId: string, options: SessionLockOptions, limit: number): Promise<{ release: () => Promise<void>; tail?: MessageTail }> {
    validateSessionId(sessionId);
    const count = tailLimit(limit, "PostgresMemoryStore", "lockSession");
    const { release, value } = await this.leases.acquireWith(sessionId, options, async (token) => {
      // No row: the lease is held elsewhere. Else one row per message read (or one, without
      // messages), each saying whether the snapshot read is the session as a read after the lock
      // would see it: no holder in the snapshot (`prior`), and the session row unchanged since it
      // was taken (`latest` locks the row after the lease is taken and so sees its newest version:
      // a holder that came and went between the snapshot and the lease would have changed it, as
      // every write of messages does). A session not stored yet is read again.
      const t = this.sql.tables;
      const rows = await this.run<TailRow & { fresh: boolean | null }>(
        "lockSession",
        sessionId,
        `WITH ${this.leases.acquireSql(1, 2, 3)},
         latest AS (SELECT s.xmin::text AS version FROM ${t.sessions} s, acquired WHERE s.session_id = $1 FOR SHARE OF s)
         ${this.sql.tail(4, `FROM acquired LEFT JOIN ${t.sessions} s ON s.session_id = $1`, { columns: ", (NOT EXISTS (SELECT 1 FROM prior) AND s.xmin::text = (SELECT version FROM latest)) AS fresh" })}`,
        [sessionId, token, this.leases.leaseMs, count === Infinity ? null : count],
      );
      if (rows.length === 0) return undefined;
      return rows[0]!.fresh === true ? this.sql.parseTail(rows, sessionId, "getMessageTail") : null;
    });
    if (value !== null) return { release, tail: value };
    // The snapshot may miss a holder's writes: read the tail after the lock.
    try {
      return { release, tail: await this.store.readTail(sessionId, count) };
    } catch (error) {
      await release().catch(() => {});
      throw error;
    }
  }

  async appendMessagesAndUnlock(sessionId: string, messages: AgentMessage[]): Promise<boolean> {
    validateSessionId(sessionId);
    const fresh = uniqueById(messages);
    if (fresh.length === 0) return false; // the lock's release function releases it
    return this.store.append(sessionId, fresh, true);
  }
}
