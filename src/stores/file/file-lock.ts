import { createHash } from "node:crypto";
import fs from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type lockfileApi from "proper-lockfile";
import { StoreError } from "../../errors/store-error";
import type { SessionLockOptions } from "../memory-store";
import { pollLock } from "../poll-lock";

let lockfileModule: Promise<typeof lockfileApi> | undefined;

/**
 * proper-lockfile (with graceful-fs and signal-exit under it), imported when the first
 * FileMemoryStore is created rather than with agentcore: importing it costs a fresh process tens
 * of milliseconds that only FileMemoryStore needs (bench/cold-start.bench.ts).
 */
function loadLockfile(): Promise<typeof lockfileApi> {
  lockfileModule ??= import("proper-lockfile").then(
    (module) => ((module as { default?: typeof lockfileApi }).default ?? module) as typeof lockfileApi,
  );
  return lockfileModule;
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
 * promise chain (`enqueue`); across processes, writers also hold `<path>.lock` (proper-lockfile
 * on an empty file, see `lockFs`: refreshed while held, broken when stale). Whole agent runs
 * hold a per-session lock file named by a hash of the id, never by the id itself.
 */
export class FileLock {
  readonly lockPath: string;
  private queue: Promise<unknown> = Promise.resolve();
  private directoryReady = false;

  constructor(private readonly options: FileLockOptions) {
    this.lockPath = `${options.path}.lock`;
    // Start loading it with the store, so the first write does not wait for it (a failure surfaces there).
    loadLockfile().catch(() => {});
  }

  /** Runs `body` after everything queued before it in this process. */
  enqueue<T>(body: () => Promise<T>): Promise<T> {
    const run = this.queue.then(body);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Queues in this process, then holds the cross-process lock file while `body` runs. */
  exclusive<T>(operation: string, sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    return this.enqueue(() => this.hold(operation, sessionId, body));
  }

  /** Holds the cross-process lock file while `body` runs (the caller is already on the queue). */
  async hold<T>(operation: string, sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    await this.ensureDirectory();
    const lockfile = await loadLockfile();
    const { path, staleLockMs, lockTimeoutMs, store } = this.options;
    let compromised: Error | undefined;
    const deadline = Date.now() + lockTimeoutMs;
    let release: () => Promise<void>;
    for (let delay = 2; ; delay = Math.min(delay * 1.5, 50)) {
      try {
        release = await lockfile.lock(path, {
          fs: lockFs,
          realpath: false,
          lockfilePath: this.lockPath,
          stale: staleLockMs,
          retries: 0,
          onCompromised: (error) => {
            compromised = error;
          },
        });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
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
    }
    try {
      const result = await body();
      if (compromised) throw compromised;
      return result;
    } finally {
      await release().catch(() => {});
    }
  }

  /**
   * A cross-process lock on one session, held for a whole agent run, in
   * `<path>.session-<sha256>.lock`. `wrapError` turns a file-system failure into the store's error.
   */
  async lockSession(
    sessionId: string,
    { timeoutMs, signal }: SessionLockOptions,
    wrapError: (error: unknown) => unknown,
  ): Promise<() => Promise<void>> {
    await this.ensureDirectory();
    const lockfile = await loadLockfile();
    const hash = createHash("sha256").update(sessionId).digest("hex").slice(0, 32);
    const target = `${this.options.path}.session-${hash}`;
    const release = await pollLock(
      sessionId,
      timeoutMs,
      async () => {
        try {
          return await lockfile.lock(target, {
            fs: lockFs,
            realpath: false,
            lockfilePath: `${target}.lock`,
            stale: this.options.staleLockMs,
            retries: 0,
            onCompromised: () => {},
          });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
          throw wrapError(error);
        }
      },
      signal,
    );
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await release().catch(() => {});
    };
  }

  private async ensureDirectory(): Promise<void> {
    if (this.directoryReady) return;
    await mkdir(dirname(this.options.path), { recursive: true });
    this.directoryReady = true;
  }
}

/**
 * The file system proper-lockfile is given: its five calls (mkdir, stat, rmdir, utimes,
 * realpath) made synchronously, their callbacks called at once, and its lock an empty file
 * instead of a directory. A lock is then an exclusive create (`O_CREAT | O_EXCL`, as atomic as a
 * mkdir: it fails with EEXIST while anything is at the path) and a stat, a release an unlink.
 * Measured on ext4 (bench/turn-floors.bench.ts): removing a directory frees its block and waits
 * on the file system's journal, 80 µs to several ms when the disk is busy, three times a turn,
 * where unlinking an empty file takes microseconds. Staleness works as before (the file's mtime,
 * refreshed while held). A lock directory left by an older version is still honoured (the create
 * fails with EEXIST) and, when stale, removed (rmdir). Metadata calls of microseconds, cheaper
 * than a thread-pool round trip each. One object for the process, so proper-lockfile's cached
 * mtime precision (kept on the fs object) is probed once.
 */
const lockFs = {
  mkdir: (...args: unknown[]) => call(args, (path) => fs.closeSync(fs.openSync(path, "wx"))),
  rmdir: (...args: unknown[]) => call(args, removeLock),
  stat: (...args: unknown[]) => call(args, (path) => fs.statSync(path)),
  utimes: (...args: unknown[]) => call(args, (path, atime, mtime) => fs.utimesSync(path, atime as Date, mtime as Date)),
  realpath: (...args: unknown[]) => call(args, (path) => fs.realpathSync(path)),
};

/** Calls `body` with the arguments before the callback, then the callback with its result or error. */
function call(args: unknown[], body: (path: string, ...rest: unknown[]) => unknown): void {
  const callback = args.pop() as (error: unknown, result?: unknown) => void;
  let result: unknown;
  try {
    result = body(...(args as [string, ...unknown[]]));
  } catch (error) {
    callback(error);
    return;
  }
  callback(null, result);
}

/** Removes a lock: a file, or the directory an older version made (unlink refuses it: EISDIR on Linux, EPERM elsewhere). */
function removeLock(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EISDIR" && code !== "EPERM") throw error;
    fs.rmdirSync(path);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
