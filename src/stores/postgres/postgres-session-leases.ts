import { giveBackFailedTake, holdLease } from "../hold-lease";
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
  /** Tokens of leases released by a write statement (`unlockedBy`) whose release function has not run yet. */
  private readonly releasedInline = new Set<string>();

  constructor(
    private readonly table: string,
    /** How long a lease lasts without renewal, in ms. */
    readonly leaseMs: number,
    private readonly run: Run,
  ) {}

  async acquire(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    return (
      await this.acquireWith(sessionId, options, async (token) => {
        const rows = await this.run(
          "lockSession",
          sessionId,
          `INSERT INTO ${this.table} AS l (session_id, token, expires_at) SELECT $1::text, $2::text, ${this.leaseSql(3)} FROM ${asyncCommit}
           ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at < clock_timestamp()
           RETURNING token`,
          [sessionId, token, this.leaseMs],
        );
        return rows.length > 0 ? true : undefined;
      })
    ).release;
  }

  /**
   * Takes the lease with the caller's statement: `attempt(token)` runs one statement that takes the
   * lease (see `acquireSql`) and resolves to what it read, or undefined when the lease is held
   * elsewhere; it is retried until it takes it or `timeoutMs` passes.
   */
  async acquireWith<T>(
    sessionId: string,
    { timeoutMs, signal }: SessionLockOptions,
    attempt: (token: string) => Promise<T | undefined>,
  ): Promise<{ release: () => Promise<void>; value: T }> {
    const token = randomUUID();
    const value = await pollLock(
      sessionId,
      timeoutMs,
      () =>
        attempt(token).catch(async (error: unknown) => {
          await this.forget(sessionId, token);
          throw error;
        }),
      signal,
    );
    this.held.set(sessionId, token);
    const release = holdLease({
      leaseMs: this.leaseMs,
      renewEveryMs: Math.max(100, Math.floor(this.leaseMs / 3)),
      renew: async () =>
        !this.releasedInline.has(token) &&
        (
          await this.run(
            "renewSessionLock",
            sessionId,
            `UPDATE ${this.table} SET expires_at = ${this.leaseSql(3)} FROM ${asyncCommit} WHERE session_id = $1 AND token = $2 RETURNING 1`,
            [sessionId, token, this.leaseMs],
          )
        ).length > 0,
      release: async () => {
        if (this.held.get(sessionId) === token) this.held.delete(sessionId);
        // Released already, by the statement of the run's last append (`unlockedBy`).
        if (this.releasedInline.delete(token)) return;
        await this.run(
          "unlockSession",
          sessionId,
          `DELETE FROM ${this.table} USING ${asyncCommit} WHERE session_id = $1 AND token = $2`,
          [sessionId, token],
        );
      },
    });
    return { release, value };
  }

  /** Deletes the lease a failed take may have taken (its statement can commit before the connection dies). */
  private forget(sessionId: string, token: string): Promise<void> {
    return giveBackFailedTake(this.leaseMs, async () => {
      await this.run(
        "unlockSession",
        sessionId,
        `DELETE FROM ${this.table} USING ${asyncCommit} WHERE session_id = $1 AND token = $2`,
        [sessionId, token],
      );
    });
  }

  /**
   * SQL of CTEs for a statement that takes the lease: `prior` (the session's lease row as the
   * statement's snapshot sees it) and `acquired(token)` (one row when the lease was taken).
   * `$session`, `$token` and `$leaseMs` are the parameter numbers. When `prior` is empty, no holder
   * had the session when the snapshot was taken, so every write of the previous holders is in it:
   * a read in the same statement sees the session as a read after the lock would. When it is not
   * (the lease was taken over, or freed while the statement waited for it), the snapshot may miss
   * the last holder's writes.
   */
  acquireSql(session: number, token: number, leaseMs: number): string {
    return `prior AS (SELECT 1 FROM ${this.table} WHERE session_id = $${session}),
      acquired AS (
        INSERT INTO ${this.table} AS l (session_id, token, expires_at) SELECT $${session}::text, $${token}::text, ${this.leaseSql(leaseMs)} FROM ${asyncCommit}
        ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
        WHERE l.expires_at < clock_timestamp()
        RETURNING token)`;
  }

  /**
   * `acquireSql` for many sessions at once: reads a CTE `input(session_id, token)` (distinct
   * sessions) and defines `prior(session_id)` and `acquired(session_id)`, one row per session as in
   * `acquireSql`. The leases are taken in session order, so two such statements never wait on each
   * other in a cycle. `$leaseMs` is the parameter number.
   */
  acquireManySql(leaseMs: number): string {
    return `prior AS (SELECT l.session_id FROM ${this.table} l JOIN input i ON l.session_id = i.session_id),
      acquired AS (
        INSERT INTO ${this.table} AS l (session_id, token, expires_at)
        SELECT i.session_id, i.token, ${this.leaseSql(leaseMs)} FROM input i, ${asyncCommit} ORDER BY i.session_id
        ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
        WHERE l.expires_at < clock_timestamp()
        RETURNING l.session_id)`;
  }

  /**
   * SQL for a write statement that also releases this holder's lease: a CTE `permitted(ok)` like
   * `fence`'s, true when the write is not fenced or when this lease was still the session's and is
   * now deleted (the delete locks the row, so a takeover waits until the write commits). Call
   * `unlockedBy` after such a statement answered ok.
   */
  fenceAndRelease(session: number, token: number): string {
    return `released AS (DELETE FROM ${this.table} WHERE session_id = $${session} AND token = $${token}::text RETURNING 1),
      permitted AS (SELECT ($${token}::text IS NULL OR EXISTS (SELECT 1 FROM released)) AS ok)`;
  }

  /** Records that a `fenceAndRelease` statement released the lease held on the session: its release function does nothing more. */
  unlockedBy(sessionId: string, token: string): void {
    if (this.held.get(sessionId) === token) this.held.delete(sessionId);
    this.releasedInline.add(token);
  }

  private leaseSql(leaseMs: number): string {
    return `clock_timestamp() + make_interval(secs => $${leaseMs}::double precision / 1000)`;
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
