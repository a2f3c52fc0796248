import { createHash, randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { access, mkdir, open, readFile, readdir, rename, stat, truncate, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import lockfile from "proper-lockfile";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import type { Fact, MemoryStore, MessageTail, SessionEntry, SummaryRecord } from "../memory-store";
import { pollLock } from "../poll-lock";
import { validateScopeId, validateSessionId } from "../session-id";
import { tailLimit } from "../tail-limit";
import {
  applyOperation,
  emptyState,
  entryOf,
  journalHeader,
  parseJournalHeader,
  parseOperation,
  parseSnapshot,
  serializeSnapshot,
  type FileState,
  type JournalOperation,
} from "./file-state";

/** Options of {@link FileMemoryStore}. */
export interface FileMemoryStoreOptions {
  /** The snapshot file, e.g. `./storage/agent-sessions.json`. Its directory is created when missing. */
  path: string;
  /** fsync each write before it resolves (survives power loss, not only a crash). @default true */
  fsync?: boolean;
  /**
   * Journal size, in bytes, past which it is folded into the snapshot (never less than the
   * snapshot's own size, so compaction costs O(1) per byte written, amortised). @default 1_048_576
   */
  compactAfterBytes?: number;
  /** A lock not refreshed for this long belongs to a dead process and is broken. Minimum 2000. @default 10_000 */
  staleLockMs?: number;
  /** How long a write waits for another process's lock before failing. @default 30_000 */
  lockTimeoutMs?: number;
}

const store = "FileMemoryStore";

interface JournalCursor {
  /** Inode of the journal read so far; undefined when there is none. */
  ino: number | undefined;
  /** Bytes consumed: the header and every complete line applied. */
  offset: number;
  /** Size of the file when last seen. */
  size: number;
  /** The journal belongs to an older generation (a compaction stopped half way): ignored, replaced on the next write. */
  stale: boolean;
}

/**
 * Keeps sessions in one readable JSON file, for a laptop, a CLI or a single small server.
 *
 * On disk, beside `path` (the snapshot: pretty JSON, one object per session):
 * - `path.journal`: JSON Lines, one change per line, appended (and fsynced) under the lock. A
 *   turn costs one appended line, whatever the size of the file. Readers apply only the lines
 *   they have not seen yet.
 * - Compaction folds the journal into a new snapshot once the journal outgrows both
 *   `compactAfterBytes` and the snapshot: temp file, fsync, rename, directory fsync, then a
 *   fresh journal the same way. Snapshot and journal carry a generation number, so a journal
 *   left over from a compaction that crashed half way is recognised and never applied twice.
 * - A line cut short by a crash was never acknowledged: readers skip it and the next writer
 *   truncates it. Anything else that does not parse is corruption: a `CorruptStoreError` is
 *   thrown, a copy is kept at `<file>.corrupt-<hash>`, and the file is left in place so no
 *   process ever starts over from an empty history by mistake.
 * - `path.lock` (proper-lockfile, refreshed while held, broken when stale) serialises writers
 *   across processes; in a process, writes also queue on a promise chain. Reads take no file
 *   lock, but queue on the same chain (concurrent reads share one refresh): two refreshes, or a
 *   refresh and a write, interleaving would apply the same journal lines twice.
 *
 * Session ids never become paths: they are keys inside the JSON.
 */
export class FileMemoryStore implements MemoryStore {
  readonly path: string;
  private readonly journalPath: string;
  private readonly lockPath: string;
  private readonly directory: string;
  private readonly fsync: boolean;
  private readonly compactAfterBytes: number;
  private readonly staleLockMs: number;
  private readonly lockTimeoutMs: number;

  private state: FileState = emptyState();
  private snapshotIdentity: string | undefined;
  private snapshotSize = 0;
  private journal: JournalCursor = { ino: undefined, offset: 0, size: 0, stale: false };
  private failure: CorruptStoreError | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** A read's refresh queued and not started yet: later readers share it. */
  private queuedRefresh: Promise<void> | undefined;
  private directoryReady = false;
  private tempsCleaned = false;

  constructor(options: FileMemoryStoreOptions | string) {
    const resolved = typeof options === "string" ? { path: options } : options;
    if (resolved == null || typeof resolved !== "object" || typeof resolved.path !== "string" || resolved.path.length === 0) {
      throw new InvalidArgumentError({
        argument: "path",
        message: 'new FileMemoryStore() needs a file path, e.g. new FileMemoryStore("./storage/agent-sessions.json").',
      });
    }
    this.path = resolve(resolved.path);
    this.journalPath = `${this.path}.journal`;
    this.lockPath = `${this.path}.lock`;
    this.directory = dirname(this.path);
    this.fsync = resolved.fsync ?? true;
    this.compactAfterBytes = resolved.compactAfterBytes ?? 1_048_576;
    this.staleLockMs = Math.max(2000, resolved.staleLockMs ?? 10_000);
    this.lockTimeoutMs = resolved.lockTimeoutMs ?? 30_000;
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    await this.read("getMessages", sessionId);
    return structuredClone(this.state.sessions.get(sessionId)?.messages ?? []);
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, limit);
  }

  /**
   * The tail and the size of a session, both taken from one state: the in-memory state brought
   * up to date with the journal by the same lock-free refresh as `getMessages`. Only the tail
   * is copied.
   */
  private async readTail(operation: "getMessageTail", sessionId: string, limit: number): Promise<MessageTail> {
    validateSessionId(sessionId);
    const count = tailLimit(limit, store, operation);
    await this.read(operation, sessionId);
    const messages = this.state.sessions.get(sessionId)?.messages ?? [];
    return { messages: count === 0 ? [] : structuredClone(messages.slice(-count)), total: messages.length };
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    if (messages.length === 0) return;
    const copy = structuredClone(messages);
    await this.write("appendMessages", sessionId, (state) => {
      const stored = state.sessions.get(sessionId)?.ids;
      const batch = new Set<string>();
      const fresh = copy.filter((message) => {
        if (message.id === undefined) return true;
        if (stored?.has(message.id) || batch.has(message.id)) return false;
        batch.add(message.id);
        return true;
      });
      return fresh.length === 0 ? undefined : { op: "append", session: sessionId, messages: fresh, at: Date.now() };
    });
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    const copy = structuredClone(messages);
    await this.write("setMessages", sessionId, () => ({ op: "set", session: sessionId, messages: copy, at: Date.now() }));
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    await this.write("clearMessages", sessionId, (state) => (state.sessions.has(sessionId) ? { op: "clear", session: sessionId } : undefined));
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    await this.read("getFacts", scopeId);
    return structuredClone([...(this.state.facts.get(scopeId)?.values() ?? [])]);
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    validateScopeId(scopeId);
    const copy = structuredClone(fact);
    await this.write("setFact", scopeId, () => ({ op: "fact", scope: scopeId, fact: copy }));
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    validateScopeId(scopeId);
    let existed = false;
    await this.write("deleteFact", scopeId, (state) => {
      existed = state.facts.get(scopeId)?.has(key) ?? false;
      return existed ? { op: "unfact", scope: scopeId, key } : undefined;
    });
    return existed;
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    validateSessionId(sessionId);
    await this.read("getSession", sessionId);
    const session = this.state.sessions.get(sessionId);
    return session ? entryOf(sessionId, session) : undefined;
  }

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    validateSessionId(sessionId);
    await this.write("updateSession", sessionId, () => ({
      op: "meta",
      session: sessionId,
      ...(metadata.agentName === undefined ? {} : { agentName: metadata.agentName }),
      ...(metadata.tags === undefined ? {} : { tags: [...metadata.tags] }),
      at: Date.now(),
    }));
  }

  async entries(): Promise<SessionEntry[]> {
    await this.read("entries", undefined);
    return [...this.state.sessions].map(([id, session]) => entryOf(id, session));
  }

  async prune(options: { olderThan: number }): Promise<string[]> {
    let pruned: string[] = [];
    await this.write("prune", undefined, (state) => {
      pruned = [...state.sessions].filter(([, session]) => session.accessedAt < options.olderThan).map(([id]) => id);
      return pruned.length === 0 ? undefined : { op: "prune", sessions: pruned };
    });
    return pruned;
  }

  async getSummaries(sessionId: string): Promise<SummaryRecord[]> {
    validateSessionId(sessionId);
    await this.read("getSummaries", sessionId);
    return structuredClone(this.state.sessions.get(sessionId)?.summaries ?? []);
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    validateSessionId(sessionId);
    const copy = structuredClone(record);
    await this.write("saveSummary", sessionId, (state) =>
      state.sessions.get(sessionId)?.summaries.some((summary) => summary.id === copy.id) ? undefined : { op: "summary", session: sessionId, summary: copy, at: Date.now() },
    );
  }

  /**
   * A cross-process lock on one session, held for a whole agent run. Its lock file is named by
   * a hash of the id (`<path>.session-<sha256>.lock`), never by the id itself.
   */
  async lockSession(sessionId: string, options: { timeoutMs: number }): Promise<() => Promise<void>> {
    validateSessionId(sessionId);
    await this.ensureDirectory();
    const hash = createHash("sha256").update(sessionId).digest("hex").slice(0, 32);
    const target = `${this.path}.session-${hash}`;
    const release = await pollLock(sessionId, options.timeoutMs, async () => {
      try {
        return await lockfile.lock(target, { realpath: false, lockfilePath: `${target}.lock`, stale: this.staleLockMs, retries: 0, onCompromised: () => {} });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
        throw this.storeError("lockSession", sessionId, error);
      }
    });
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await release().catch(() => {});
    };
  }

  // ---- reading ---------------------------------------------------------------------------

  private async read(operation: string, sessionId: string | undefined): Promise<void> {
    try {
      await this.queueRefresh();
    } catch (error) {
      throw this.storeError(operation, sessionId, error);
    }
  }

  /**
   * Refreshes on the in-process queue, after the writes queued before it: the journal cursor and
   * the state change only there, one change at a time. A refresh queued and not started yet
   * starts after every reader that joins it, so they share it.
   */
  private queueRefresh(): Promise<void> {
    if (this.queuedRefresh) return this.queuedRefresh;
    const run = this.queue.then(() => {
      this.queuedRefresh = undefined;
      return this.refresh(false);
    });
    this.queuedRefresh = run;
    this.queue = run.catch(() => {});
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
        throw new StoreError({ store, operation: "read", message: `${this.journalPath} belongs to a newer generation than ${this.path}, and stayed so. Was the snapshot replaced by hand?` });
      }
      await sleep(2 + attempt * 2);
    }
  }

  private async tryRefresh(locked: boolean): Promise<"done" | "retry"> {
    // Fast path, the common case: one stat per file shows nothing changed since the last look.
    const snapshotStats = await statIfExists(this.path);
    if ((snapshotStats ? identityOf(snapshotStats) : "missing") === this.snapshotIdentity) {
      const journalStats = await statIfExists(this.journalPath);
      if (journalStats && journalStats.ino === this.journal.ino && (this.journal.stale || journalStats.size === this.journal.offset)) {
        this.journal.size = journalStats.size;
        return "done";
      }
      if (!journalStats && this.journal.ino === undefined) return "done";
    }
    const snapshot = await openIfExists(this.path);
    try {
      const stats = snapshot ? await snapshot.stat() : undefined;
      const identity = stats ? identityOf(stats) : "missing";
      if (identity !== this.snapshotIdentity) {
        let state = emptyState();
        if (snapshot) {
          const text = await snapshot.readFile("utf8");
          try {
            state = parseSnapshot(text);
          } catch (error) {
            return await this.corrupt(this.path, `the snapshot does not parse: ${errorText(error)}`, error, locked);
          }
        }
        this.state = state;
        this.snapshotIdentity = identity;
        this.snapshotSize = stats?.size ?? 0;
        this.journal = { ino: undefined, offset: 0, size: 0, stale: false };
      }
    } finally {
      await snapshot?.close();
    }

    const journal = await openIfExists(this.journalPath);
    if (!journal) {
      if (this.journal.ino !== undefined && this.journal.offset > 0 && !this.journal.stale) {
        this.snapshotIdentity = undefined; // applied lines vanished: start over from the snapshot
        return "retry";
      }
      this.journal = { ino: undefined, offset: 0, size: 0, stale: false };
      return "done";
    }
    try {
      const stats = await journal.stat();
      if (stats.ino !== this.journal.ino) {
        if (this.journal.ino !== undefined && !this.journal.stale) {
          this.snapshotIdentity = undefined; // another journal than the one applied: start over
          return "retry";
        }
        this.journal = { ino: stats.ino, offset: 0, size: 0, stale: false };
      }
      this.journal.size = stats.size;
      if (this.journal.stale || stats.size <= this.journal.offset) return "done";
      const length = stats.size - this.journal.offset;
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await journal.read(buffer, 0, length, this.journal.offset);
      let start = 0;
      for (let newline = buffer.indexOf(10, 0); newline !== -1 && newline < bytesRead; newline = buffer.indexOf(10, start)) {
        const line = buffer.toString("utf8", start, newline);
        if (this.journal.offset === 0 && start === 0) {
          const generation = parseJournalHeader(line);
          if (generation === undefined) return await this.corrupt(this.journalPath, "the journal has no valid header line", undefined, locked);
          if (generation < this.state.generation) {
            this.journal.stale = true;
            return "done";
          }
          if (generation > this.state.generation) {
            this.journal.ino = undefined;
            this.snapshotIdentity = undefined;
            return "retry"; // a compaction replaced the snapshot after we read it
          }
        } else {
          let operation: JournalOperation;
          try {
            operation = parseOperation(line);
          } catch (error) {
            return await this.corrupt(this.journalPath, `line at byte ${this.journal.offset + start} does not parse: ${errorText(error)}`, error, locked);
          }
          applyOperation(this.state, operation);
        }
        start = newline + 1;
      }
      // Bytes after the last newline are a line still being written, or cut short by a crash:
      // never acknowledged, so not applied. The next writer truncates them.
      this.journal.offset += start;
      return "done";
    } finally {
      await journal.close();
    }
  }

  /**
   * A file that does not parse: confirmed under the lock (another process may just have
   * replaced it), then copied aside to `<file>.corrupt-<hash of its content>` and reported. The
   * bad file stays where it is, so every process that opens the store gets the same error
   * (none starts over from an empty history) until someone restores or removes it.
   */
  private async corrupt(file: string, reason: string, cause: unknown, locked: boolean): Promise<"retry"> {
    if (!locked) {
      this.snapshotIdentity = undefined;
      await this.locked("read", undefined, () => this.refresh(true)); // already on the queue: only the file lock
      return "retry";
    }
    let keptAt: string | undefined;
    try {
      const content = await readFile(file);
      keptAt = `${file}.corrupt-${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
      if (!(await exists(keptAt))) await this.writeAtomically(keptAt, content);
    } catch {
      keptAt = undefined;
    }
    this.failure = new CorruptStoreError({
      store,
      operation: "read",
      path: file,
      ...(keptAt ? { keptAt } : {}),
      message: `${file} is corrupt (${reason}); nothing was read from it${keptAt ? ` and a copy is kept at ${keptAt}` : ""}. Repair or restore the file (or delete ${this.path} and ${this.journalPath} to start over), then create the FileMemoryStore again.`,
      cause,
    });
    throw this.failure;
  }

  // ---- writing ---------------------------------------------------------------------------

  /** Under the lock: refresh, build the change from the current state, append it, maybe compact. */
  private async write(operation: string, sessionId: string | undefined, build: (state: FileState) => JournalOperation | undefined): Promise<void> {
    try {
      await this.withLock(operation, sessionId, async () => {
        await this.refresh(true);
        const change = build(this.state);
        if (!change) return;
        await this.prepareJournal();
        const line = Buffer.from(`${JSON.stringify(change)}\n`, "utf8");
        const handle = await open(this.journalPath, "a");
        try {
          await handle.writeFile(line);
          if (this.fsync) await handle.datasync();
        } finally {
          await handle.close();
        }
        applyOperation(this.state, change);
        this.journal.offset += line.length;
        this.journal.size = this.journal.offset;
        if (this.journal.size >= Math.max(this.compactAfterBytes, this.snapshotSize)) await this.compact();
      });
    } catch (error) {
      throw this.storeError(operation, sessionId, error);
    }
  }

  /** Makes sure the journal exists for the current generation and ends with a whole line. */
  private async prepareJournal(): Promise<void> {
    if (this.journal.ino === undefined || this.journal.stale) {
      await this.replaceJournal();
    } else if (this.journal.size > this.journal.offset) {
      await truncate(this.journalPath, this.journal.offset);
      this.journal.size = this.journal.offset;
    }
  }

  private async replaceJournal(): Promise<void> {
    const header = journalHeader(this.state.generation);
    await this.writeAtomically(this.journalPath, header);
    const handle = await open(this.journalPath, "r");
    try {
      const stats = await handle.stat();
      const length = Buffer.byteLength(header);
      this.journal = { ino: stats.ino, offset: length, size: length, stale: false };
    } finally {
      await handle.close();
    }
  }

  /** Folds the journal into a new snapshot of the next generation, then starts a fresh journal. */
  private async compact(): Promise<void> {
    await this.removeLeftoverTemps();
    const generation = this.state.generation + 1;
    const text = serializeSnapshot(this.state, generation);
    await this.writeAtomically(this.path, text);
    // From here the new snapshot holds everything; the old journal (older generation) is ignored.
    this.state.generation = generation;
    const handle = await open(this.path, "r");
    try {
      const stats = await handle.stat();
      this.snapshotIdentity = identityOf(stats);
      this.snapshotSize = stats.size;
    } finally {
      await handle.close();
    }
    await this.replaceJournal();
  }

  /** Temp file in the same directory, fsync, rename over the target, fsync the directory. */
  private async writeAtomically(target: string, text: string | Buffer): Promise<void> {
    const temp = `${this.path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(text);
      if (this.fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
    await this.syncDirectory();
  }

  private async syncDirectory(): Promise<void> {
    if (!this.fsync) return;
    const handle = await open(this.directory, "r");
    try {
      await handle.sync();
    } catch {
      // some file systems cannot fsync a directory; the rename is still atomic
    } finally {
      await handle.close();
    }
  }

  /** Temp files only exist while a lock holder writes them: any found under the lock are leftovers of a crash. */
  private async removeLeftoverTemps(): Promise<void> {
    const prefix = `${basename(this.path)}.tmp-`;
    for (const name of await readdir(this.directory)) {
      if (name.startsWith(prefix)) await unlink(resolve(this.directory, name)).catch(() => {});
    }
    this.tempsCleaned = true;
  }

  // ---- locking ---------------------------------------------------------------------------

  /** Queues in this process, then takes the cross-process lock file. */
  private withLock<T>(operation: string, sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.locked(operation, sessionId, body));
    this.queue = run.catch(() => {});
    return run;
  }

  private async locked<T>(operation: string, sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    await this.ensureDirectory();
    let compromised: Error | undefined;
    const deadline = Date.now() + this.lockTimeoutMs;
    let release: () => Promise<void>;
    for (let delay = 2; ; delay = Math.min(delay * 1.5, 50)) {
      try {
        release = await lockfile.lock(this.path, {
          realpath: false,
          lockfilePath: this.lockPath,
          stale: this.staleLockMs,
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
            message: `Could not lock ${this.path} within ${this.lockTimeoutMs} ms: another process holds ${this.lockPath}. If no process uses the file, the lock is broken automatically after ${this.staleLockMs} ms.`,
          });
        }
        await sleep(delay * (0.5 + Math.random()));
      }
    }
    try {
      if (!this.tempsCleaned) await this.removeLeftoverTemps();
      const result = await body();
      if (compromised) throw compromised;
      return result;
    } finally {
      await release().catch(() => {});
    }
  }

  private async ensureDirectory(): Promise<void> {
    if (this.directoryReady) return;
    await mkdir(this.directory, { recursive: true });
    this.directoryReady = true;
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

async function openIfExists(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Identifies one version of the snapshot: a replacement (rename) changes the inode. */
function identityOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
