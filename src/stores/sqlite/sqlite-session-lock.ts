// The session locks of SqliteMemoryStore: a lease row per locked session in `<prefix>locks`, and
// the fence every write to a locked session checks inside its own transaction.
import { randomUUID } from "node:crypto";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { holdLease } from "../hold-lease";
import type { SessionLockOptions } from "../memory-store";
import { pollLock } from "../poll-lock";
import type { SqliteStatements } from "./sqlite-statements";

/** The store's write: one `BEGIN IMMEDIATE` transaction, its errors as `StoreError`s. */
type Write = <T>(operation: string, sessionId: string, body: () => T) => T;

/**
 * One lock row per locked session (holder token, expiry in ms since the epoch), taken when absent
 * or expired, renewed by a timer while held, deleted on release only while it holds this
 * holder's token; it works across processes sharing the file. The instance remembers the token of
 * each lock it holds (or held until it was taken over), and `fence` checks it inside each write's
 * transaction: a takeover is a write transaction too, so it lands wholly before or after the
 * check, and a holder whose lock was taken over is refused instead of committing.
 */
export class SqliteSessionLocks {
  /** Token of the lock this store instance holds (or held until it was taken over), per session. */
  private readonly held = new Map<string, string>();

  constructor(
    private readonly statements: SqliteStatements,
    /** How long a lock lives without being renewed, in ms. */
    private readonly leaseMs: number,
    private readonly write: Write,
  ) {}

  async acquire(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    const token = randomUUID();
    await pollLock(
      sessionId,
      options.timeoutMs,
      async () =>
        this.write("lockSession", sessionId, () => {
          const now = Date.now();
          this.statements.expireLock.run(sessionId, now);
          return this.statements.takeLock.run(sessionId, token, now + this.leaseMs).changes === 1 ? true : undefined;
        }),
      options.signal,
    );
    this.held.set(sessionId, token);
    return holdLease({
      leaseMs: this.leaseMs,
      // A busy database throws: the next tick tries again, well inside the lease.
      renew: () => this.statements.renewLock.run(Date.now() + this.leaseMs, sessionId, token).changes === 1,
      release: () => {
        if (this.held.get(sessionId) === token) this.held.delete(sessionId);
        this.write("unlockSession", sessionId, () => void this.statements.releaseLock.run(sessionId, token));
      },
    });
  }

  /**
   * Throws a `SessionLockLostError` when this instance holds a lock on the session and the lock
   * row no longer carries its token (it expired and another holder took it). Call it first inside
   * the write's transaction. A write by an instance holding no lock on the session is not fenced.
   */
  fence(operation: string, sessionId: string): void {
    const token = this.held.get(sessionId);
    if (token !== undefined && this.statements.lockHeld.get(sessionId, token) === undefined)
      throw new SessionLockLostError({ store: "SqliteMemoryStore", operation, sessionId });
  }
}
