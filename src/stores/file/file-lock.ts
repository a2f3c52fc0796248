import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { StoreError } from "../../errors/store-error";
import type { SessionLockOptions } from "../memory-store";
import { pollLock } from "../poll-lock";
import { LockFile } from "./lock-file";

/** The writers' lock as its holder sees it. */
export interface WritersLock {
  /** Throws a `StoreError` when the lock is no longer this holder's; call it right before writing. */
  fence(): void;
  isHeld(): boolean;
}

/** Options of {@link FileLock}. */
export interface FileLockOptions {
  /** The snapshot path: the writers' lock is `<path>.lock`, session locks `<path>.session-<sha256>.lock`. */
  path: string;
  /** A lock not refreshed for this long belongs to a dead process and is broken. */
  staleLockMs: number;
  /** How long `exclusive` waits for another process's lock before failing. */
  lockTimeoutMs: number;
  /** The store's name, for errors. */
  store: string;
}

/**
 * The file store's locks. In a process, everything that touches the store's state queues on one
 * promise chain (`enqueue`); across processes, writers also hold `<path>.lock` (a `LockFile`:
 * refreshed while held, taken over atomically when stale). Whole agent runs hold a per-session
 * lock file named by a hash of the id, never by the id itself; this store's writes to a session
 * whose lock it holds are fenced by it (`fenceSession`).
 */
export class FileLock {
  readonly lockPath: string;
  private queue: Promise<unknown> = Promise.resolve();
  private directoryReady = false;
  /** The session locks this store holds, by session id. */
  private readonly sessions = new Map<string, Set<LockFile>>();

  constructor(private readonly options: FileLockOptions) {
    this.lockPath = `${options.path}.lock`;
  }

  /** Runs `body` after everything queued before it in this process. */
  enqueue<T>(body: () => Promise<T>): Promise<T> {
    const run = this.queue.then(body);
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Queues in this process, then holds the cross-process lock file while `body` runs. `body` gets
   * its `fence`: called right before a write, it throws when the lock was lost meanwhile (see `hold`).
   */
  exclusive<T>(
    operation: string,
    sessionId: string | undefined,
    body: (writers: WritersLock) => Promise<T>,
  ): Promise<T> {
    return this.enqueue(() => this.hold(operation, sessionId, body));
  }

  /**
   * Holds the cross-process lock file while `body` runs (the caller is already on the queue).
   * `fence()` throws a `StoreError` when the lock file is no longer this holder's (this process
   * stalled past the stale time and another broke it): the engine calls it synchronously right
   * before each write, so a writer that lost the lock writes nothing, instead of writing and then
   * reporting a failure for a line that is stored.
   */
  async hold<T>(
    operation: string,
    sessionId: string | undefined,
    body: (writers: WritersLock) => Promise<T>,
  ): Promise<T> {
    await this.ensureDirectory();
    const { path, staleLockMs, lockTimeoutMs, store } = this.options;
    const deadline = Date.now() + lockTimeoutMs;
    let lock: LockFile;
    for (let delay = 2; ; delay = Math.min(delay * 1.5, 50)) {
      const taken = LockFile.tryTake(this.lockPath, staleLockMs);
      if (taken instanceof LockFile) {
        lock = taken;
        break;
      }
      if (taken === undefined || (taken.stale && LockFile.breakStale(this.lockPath, taken, staleLockMs))) continue;
      if (Date.now() > deadline) {
        throw new StoreError({
          store,
          operation,
          ...(sessionId === undefined ? {} : { sessionId }),
          message: `Could not lock ${path} within ${lockTimeoutMs} ms: another process holds ${this.lockPath}. If no process uses the file, the lock is broken automatically after ${staleLockMs} ms.`,
        });
      }
      await sleep(delay * (0.5 + Math.random()));
    }
    const fence = () => {
      if (lock.isHeld()) return;
      throw new StoreError({
        store,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `${store} lost its lock ${this.lockPath} (this process stalled longer than staleLockMs, ${staleLockMs} ms, and another process broke it), so ${operation} was refused: nothing was written. Retry it.`,
      });
    };
    try {
      return await body({ fence, isHeld: () => lock.isHeld() });
    } finally {
      lock.release();
    }
  }

  /**
   * A cross-process lock on one session, held for a whole agent run, in
   * `<path>.session-<sha256>.lock`. `wrapError` turns a file-system failure into the store's error.
   * A stale session lock is broken under the writers' lock, so a takeover is ordered with every
   * fenced write (`fenceSession`, checked under the writers' lock): a write of the previous holder
   * lands either before the takeover or not at all.
   */
  async lockSession(
    sessionId: string,
    { timeoutMs, signal }: SessionLockOptions,
    wrapError: (error: unknown) => unknown,
  ): Promise<() => Promise<void>> {
    await this.ensureDirectory();
    const lockPath = this.sessionLockPath(sessionId);
    const { staleLockMs } = this.options;
    const lock = await pollLock(
      sessionId,
      timeoutMs,
      async () => {
        try {
          for (let attempt = 0; attempt < 3; attempt++) {
            const taken = LockFile.tryTake(lockPath, staleLockMs);
            if (taken instanceof LockFile) return taken;
            if (taken === undefined) continue;
            if (!taken.stale) return undefined;
            const broken = await this.exclusive("lockSession", sessionId, async () =>
              LockFile.breakStale(lockPath, taken, staleLockMs),
            );
            if (!broken) return undefined;
          }
          return undefined;
        } catch (error) {
          throw wrapError(error);
        }
      },
      signal,
    );
    const holders = this.sessions.get(sessionId) ?? new Set<LockFile>();
    holders.add(lock);
    this.sessions.set(sessionId, holders);
    return async () => {
      holders.delete(lock);
      if (holders.size === 0 && this.sessions.get(sessionId) === holders) this.sessions.delete(sessionId);
      lock.release();
    };
  }

  /**
   * Throws `SessionLockLostError` when this store holds `sessionId`'s lock no more: its lock file
   * was broken by another process (this one stalled past the stale time) or removed. Called under
   * the writers' lock, synchronously right before a write to the session; a store that does not
   * hold the session's lock is not fenced (a write outside a run).
   */
  fenceSession(operation: string, sessionId: string): void {
    const holders = this.sessions.get(sessionId);
    if (!holders) return;
    for (const lock of holders)
      if (!lock.isHeld()) throw new SessionLockLostError({ store: this.options.store, operation, sessionId });
  }

  private sessionLockPath(sessionId: string): string {
    const hash = createHash("sha256").update(sessionId).digest("hex").slice(0, 32);
    return `${this.options.path}.session-${hash}.lock`;
  }

  private async ensureDirectory(): Promise<void> {
    if (this.directoryReady) return;
    await mkdir(dirname(this.options.path), { recursive: true });
    this.directoryReady = true;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
