import type { SessionLockOptions } from "../memory-store";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import { AtomicWriter } from "./atomic-writer";
import { FileLock, sleep } from "./file-lock";
import { applyOperation, emptyState, type FileState, type JournalOperation } from "./file-state";
import { errorText } from "../../errors/error-text";
import { JournalFile } from "./journal-file";
import { exists, statIfExistsSync } from "./optional-file";
import { SnapshotFile } from "./snapshot-file";

/** Options of {@link FileStoreEngine}, resolved by the store. */
export interface FileStoreEngineOptions {
  path: string;
  fsync: boolean;
  compactAfterBytes: number;
  staleLockMs: number;
  lockTimeoutMs: number;
}

const store = "FileMemoryStore";

/**
 * The file store's state and the files behind it: the snapshot, the journal replayed on it, the
 * locks, compaction and corruption handling. The store asks it to `read` (bring the in-memory
 * state up to date) or to `write` (append one change built from the up-to-date state).
 */
export class FileStoreEngine {
  /** The state as the files last read describe it. Read it only after `read` or inside `write`'s build. */
  state: FileState = emptyState();
  readonly path: string;
  private readonly writer: AtomicWriter;
  private readonly snapshot: SnapshotFile;
  private readonly journal: JournalFile;
  private readonly lock: FileLock;
  private failure: CorruptStoreError | undefined;
  /** A read's refresh queued and not started yet: later readers share it. */
  private queuedRefresh: Promise<void> | undefined;
  private tempsCleaned = false;

  constructor(private readonly options: FileStoreEngineOptions) {
    this.path = options.path;
    this.writer = new AtomicWriter(options.path, options.fsync);
    this.snapshot = new SnapshotFile(options.path, this.writer);
    this.lock = new FileLock({
      path: options.path,
      staleLockMs: options.staleLockMs,
      lockTimeoutMs: options.lockTimeoutMs,
      store,
    });
    this.journal = new JournalFile(`${options.path}.journal`, this.writer, options.fsync, (body) =>
      this.lock.enqueue(body),
    );
  }

  /** Brings `state` up to date with the files. Takes no file lock. */
  async read(operation: string, sessionId: string | undefined): Promise<void> {
    try {
      await this.queueRefresh();
    } catch (error) {
      throw this.storeError(operation, sessionId, error);
    }
  }

  /**
   * Under the lock: refresh, build the change from the current state, append it, maybe compact.
   * `sync: false` leaves the fsync of the line to `sync()` or the next synced write (see `JournalFile`).
   * `fenced`: a write to `sessionId`'s records, refused with `SessionLockLostError` (nothing
   * written) when this store held the session's lock and lost it. Every write is also refused,
   * before anything reaches a file, when the writers' lock was lost while it waited (see `FileLock`).
   */
  async write(
    operation: string,
    sessionId: string | undefined,
    build: (state: FileState) => JournalOperation | undefined,
    options: { sync?: boolean; fenced?: boolean } = {},
  ): Promise<void> {
    try {
      await this.lock.exclusive(operation, sessionId, async (writers) => {
        const fence = () => {
          if (options.fenced && sessionId !== undefined) this.lock.fenceSession(operation, sessionId);
          writers.fence();
        };
        if (!this.tempsCleaned) await this.removeLeftoverTemps();
        await this.refresh(true);
        const change = build(this.state);
        if (!change) return;
        fence();
        // Files without the journal's `committed` field or without a snapshot (a new store, or one
        // written by an older version) are upgraded first, so a truncated or deleted journal is detected.
        if (this.snapshot.missing || this.journal.legacy) await this.compact(fence);
        await this.journal.append(change, this.state.generation, { sync: options.sync ?? true, fence });
        applyOperation(this.state, change);
        if (this.journal.bytes < Math.max(this.options.compactAfterBytes, this.snapshot.size)) return;
        try {
          await this.compact(writers.fence);
        } catch (error) {
          // The change is stored: a compaction stopped by a lost lock is the next writer's to do.
          if (writers.isHeld()) throw error;
        }
      });
    } catch (error) {
      throw this.storeError(operation, sessionId, error);
    }
  }

  /** Makes every write of this process durable, those made with `sync: false` included (on the in-process queue, after the writes queued before it). */
  async sync(operation: string, sessionId: string | undefined): Promise<void> {
    try {
      await this.lock.enqueue(() => this.journal.sync());
    } catch (error) {
      throw this.storeError(operation, sessionId, error);
    }
  }

  /**
   * A run's session lock. Its release first syncs what this process wrote without a sync, so a run
   * never gives its session up with an unsynced line (the agent syncs on its own before; this is
   * the backstop, whatever path the run took).
   */
  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    const release = await this.lock.lockSession(sessionId, options, (error) =>
      this.storeError("lockSession", sessionId, error),
    );
    return async () => {
      try {
        await this.sync("lockSession", sessionId);
      } finally {
        await release();
      }
    };
  }

  /**
   * Refreshes on the in-process queue, after the writes queued before it: the journal cursor and
   * the state change only there, one change at a time. A refresh queued and not started yet
   * starts after every reader that joins it, so they share it.
   */
  private queueRefresh(): Promise<void> {
    if (this.queuedRefresh) return this.queuedRefresh;
    const run = this.lock.enqueue(() => {
      this.queuedRefresh = undefined;
      return this.refresh(false);
    });
    this.queuedRefresh = run;
    return run;
  }

  /**
   * Brings the in-memory state up to date with the files: reloads the snapshot when it was
   * replaced, then applies the journal lines not applied yet. Safe without the lock.
   */
  private async refresh(locked: boolean): Promise<void> {
    if (this.failure) throw this.failure;
    for (let attempt = 0; ; attempt++) {
      if ((await this.tryRefresh(locked)) === "done") return;
      if (attempt >= 50) {
        throw new StoreError({
          store,
          operation: "read",
          message: `${this.journal.path} belongs to a newer generation than ${this.path}, and stayed so. Was the snapshot replaced by hand?`,
        });
      }
      await sleep(2 + attempt * 2);
    }
  }

  private async tryRefresh(locked: boolean): Promise<"done" | "retry"> {
    // Fast path, the common case: one stat per file shows nothing changed since the last look
    // (synchronous stats: microseconds each, where a thread-pool round trip costs more).
    if (this.snapshot.isUnchanged() && this.journal.isCaughtUp(statIfExistsSync(this.journal.path))) return "done";
    const loaded = await this.snapshot.load(emptyState);
    if (loaded.kind === "corrupt")
      return this.corrupt(this.path, `the snapshot does not parse: ${errorText(loaded.error)}`, loaded.error, locked);
    if (loaded.kind === "loaded") {
      this.state = loaded.state;
      this.journal.reset();
    }
    const read = await this.journal.read(this.state.generation, !this.snapshot.missing, (operation) =>
      applyOperation(this.state, operation),
    );
    if (read.kind === "restart") {
      this.snapshot.forget();
      return "retry";
    }
    if (read.kind === "corrupt") return this.corrupt(this.journal.path, read.reason, read.cause, locked);
    return "done";
  }

  /**
   * A file that does not parse: confirmed under the lock (another process may just have
   * replaced it), then copied aside to `<file>.corrupt-<hash of its content>` and reported. The
   * bad file stays where it is, so every process that opens the store gets the same error
   * (none starts over from an empty history) until someone restores or removes it.
   */
  private async corrupt(file: string, reason: string, cause: unknown, locked: boolean): Promise<"retry"> {
    if (!locked) {
      this.snapshot.forget();
      await this.lock.hold("read", undefined, () => this.refresh(true)); // already on the queue: only the file lock
      return "retry";
    }
    let keptAt: string | undefined;
    try {
      const content = await readFile(file);
      keptAt = `${file}.corrupt-${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
      if (!(await exists(keptAt))) await this.writer.write(keptAt, content);
    } catch {
      keptAt = undefined;
    }
    this.failure = new CorruptStoreError({
      store,
      operation: "read",
      path: file,
      ...(keptAt ? { keptAt } : {}),
      message: `${file} is corrupt (${reason}); nothing was read from it${keptAt ? ` and a copy is kept at ${keptAt}` : ""}. Repair or restore the file (or delete ${this.path} and ${this.journal.path} to start over), then create the FileMemoryStore again.`,
      cause,
    });
    throw this.failure;
  }

  /** Folds the journal into a new snapshot of the next generation, then starts a fresh journal. */
  private async compact(fence: () => void): Promise<void> {
    await this.removeLeftoverTemps();
    // A snapshot is never left without a journal beside it: that is how a deleted journal shows.
    if (this.journal.missing) await this.journal.replace(this.state.generation, fence);
    const generation = this.state.generation + 1;
    await this.snapshot.write(this.state, generation, fence);
    // From here the new snapshot holds everything; the old journal (older generation) is ignored.
    this.state.generation = generation;
    await this.journal.replace(generation, fence);
  }

  private async removeLeftoverTemps(): Promise<void> {
    await this.writer.removeLeftoverTemps();
    this.tempsCleaned = true;
  }

  private storeError(operation: string, sessionId: string | undefined, error: unknown): unknown {
    if (StoreError.isInstance(error) || InvalidArgumentError.isInstance(error)) return error;
    return new StoreError({
      store,
      operation,
      ...(sessionId === undefined ? {} : { sessionId }),
      message: `${store} failed during ${operation} on ${this.path}: ${errorText(error)}`,
      cause: error,
    });
  }
}
