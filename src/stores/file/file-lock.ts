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
  lockfileModule ??= import("proper-lockfile").then((module) => ((module as { default?: typeof lockfileApi }).default ?? module) as typeof lockfileApi);
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
 * promise chain (`enqueue`); across processes, writers also hold `<path>.lock` (proper-lockfile,
 * refreshed while held, broken when stale). Whole agent runs hold a per-session lock file named
 * by a hash of the id, never by the id itself.
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
          fs: syncFs,
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
  async lockSession(sessionId: string, { timeoutMs, signal }: SessionLockOptions, wrapError: (error: unknown) => unknown): Promise<() => Promise<void>> {
    await this.ensureDirectory();
    const lockfile = await loadLockfile();
    const hash = createHash("sha256").update(sessionId).digest("hex").slice(0, 32);
    const target = `${this.options.path}.session-${hash}`;
    const release = await pollLock(sessionId, timeoutMs, async () => {
      try {
        return await lockfile.lock(target, { fs: syncFs, realpath: false, lockfilePath: `${target}.lock`, stale: this.options.staleLockMs, retries: 0, onCompromised: () => {} });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
        throw wrapError(error);
      }
    }, signal);
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
 * realpath) made synchronously, their callbacks called at once. A lock is a mkdir (and a stat
 * the first time, to learn the mtime precision, then one per acquisition), a release a rmdir:
 * metadata calls of microseconds, cheaper than a thread-pool round trip each, which a turn would
 * otherwise pay six times. One object for the process, so proper-lockfile's cached mtime
 * precision (kept on the fs object) is probed once.
 */
const syncFs = Object.fromEntries(
  (["mkdir", "stat", "rmdir", "utimes", "realpath"] as const).map((method) => [
    method,
    (...args: unknown[]) => {
      const callback = args.pop() as (error: unknown, result?: unknown) => void;
      let result: unknown;
      try {
        result = (fs[`${method}Sync`] as (...parameters: unknown[]) => unknown)(...args);
      } catch (error) {
        callback(error);
        return;
      }
      callback(null, result);
    },
  ]),
);

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
