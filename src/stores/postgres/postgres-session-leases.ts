import { holdLease } from "../hold-lease";
import { randomUUID } from "node:crypto";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { SessionLockOptions } from "../memory-store";
import { pollLock } from "../poll-lock";

/**
 * A one-row subquery that turns off `synchronous_commit` for the statement's own transaction: a
 * lease statement commits without waiting for its WAL flush (one disk flush fewer per statement;
 * the appends of a turn still wait for theirs). A lease is no data: if the server crashes
 * before the flush, a lease taken is lost (another holder may take the session, and the first
 * holder's fenced writes are refused: `SessionLockLostError`), or a lease released comes back
 * (the session waits until it expires). Nothing stored is lost either way.
 */
const asyncCommit = `(SELECT set_config('synchronous_commit', 'off', true)) AS commit_settings`;

type Run = <Row extends object>(operation: string, sessionId: string, sql: string, values: unknown[]) => Promise<Row[]>;

/**
 * The session locks of a `PostgresMemoryStore`: one lease row per locked session (holder
 * token, expiry in the server's clock) in `<prefix>session_locks`. Taking, renewing and
 * releasing a lease are single short statements on the pool, so no connection is held while
 * a run goes on: any pool size works, and a dead connection loses nothing but one statement.
 * A timer renews each lease while it is held; a lease whose holder died expires after
 * `leaseMs` and can then be taken over. The store remembers the token of each lease this
 * instance holds, and its writes to that session check it inside the write statement (see
 * `fence`), so a holder whose lease was taken over is refused instead of committing.
 */
export class PostgresSessionLeases {
  /** Token of the lease this store instance holds (or held until it was taken), per session. */
  private readonly held = new Map<string, string>();

  constructor(
    private readonly table: string,
    private readonly leaseMs: number,
    private readonly run: Run,
  ) {}

  async acquire(sessionId: string, { timeoutMs, signal }: SessionLockOptions): Promise<() => Promise<void>> {
    const token = randomUUID();
    const lease = `clock_timestamp() + make_interval(secs => $3::double precision / 1000)`;
    await pollLock(sessionId, timeoutMs, async () => {
      const rows = await this.run(
        "lockSession",
        sessionId,
        `INSERT INTO ${this.table} AS l (session_id, token, expires_at) SELECT $1::text, $2::text, ${lease} FROM ${asyncCommit}
         ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at < clock_timestamp()
         RETURNING token`,
        [sessionId, token, this.leaseMs],
      );
      return rows.length > 0 ? true : undefined;
    }, signal);
    this.held.set(sessionId, token);
    return holdLease({
      leaseMs: this.leaseMs,
      renewEveryMs: Math.max(100, Math.floor(this.leaseMs / 3)),
      renew: async () =>
        (await this.run("renewSessionLock", sessionId, `UPDATE ${this.table} SET expires_at = ${lease} FROM ${asyncCommit} WHERE session_id = $1 AND token = $2 RETURNING 1`, [sessionId, token, this.leaseMs])).length > 0,
      release: async () => {
        if (this.held.get(sessionId) === token) this.held.delete(sessionId);
        await this.run("unlockSession", sessionId, `DELETE FROM ${this.table} USING ${asyncCommit} WHERE session_id = $1 AND token = $2`, [sessionId, token]);
      },
    });
  }

  /**
   * The token a write to this session must hold, or null when this instance holds no lease on
   * it (a write outside a run is not fenced).
   */
  tokenOf(sessionId: string): string | null {
    return this.held.get(sessionId) ?? null;
  }

  /**
   * SQL for a write statement: a CTE `permitted(ok)` that is true when the write is not fenced
   * (`$token` null) or this lease is still the session's, locking the lease row FOR SHARE so a
   * takeover waits until the write commits. `$session` and `$token` are the parameter numbers.
   */
  fence(session: number, token: number): string {
    return `lease AS (SELECT 1 FROM ${this.table} WHERE session_id = $${session} AND token = $${token}::text FOR SHARE),
      permitted AS (SELECT ($${token}::text IS NULL OR EXISTS (SELECT 1 FROM lease)) AS ok)`;
  }

  /** The error of a write refused because this holder's lease was taken over. */
  lostError(operation: string, sessionId: string): SessionLockLostError {
    return new SessionLockLostError({ store: "PostgresMemoryStore", operation, sessionId });
  }
}
