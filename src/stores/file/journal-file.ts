import { errorText } from "../../errors/error-text";
import { type Stats, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import type { AtomicWriter } from "./atomic-writer";
import {
  committedField,
  journalHeader,
  parseJournalHeader,
  parseOperation,
  serializeOperation,
  type JournalHeader,
  type JournalOperation,
} from "./file-state";
import { openIfExists } from "./optional-file";

/** What a read of the journal found. */
export type JournalRead =
  /** Every complete line not seen before was applied (or the journal is stale and ignored). */
  | { kind: "done" }
  /** The journal no longer continues what was applied (a compaction replaced the files): reload the snapshot. */
  | { kind: "restart" }
  /** The journal does not parse, was truncated, or is missing beside its snapshot. */
  | { kind: "corrupt"; reason: string; cause?: unknown };

/** A header is far shorter than this; its first read takes this many bytes. */
const HEADER_READ = 256;
/** Milliseconds the append handle stays open after the last append. */
const IDLE_CLOSE_MS = 1_000;
/** Milliseconds a line written without its sync waits at most for one (when nothing synced it before). */
export const DEFERRED_SYNC_MS = 1_000;

/**
 * `<path>.journal`: JSON Lines, a header `{ format, generation, committed }` then one change per
 * line, appended under the lock. Keeps a cursor on the lines applied so far, so a refresh reads
 * only the bytes it has not seen yet.
 *
 * After each append is synced, `committed` in the header is rewritten in place with the new
 * length. A reader that finds the journal ending before `committed` (a line or more cut off) or
 * shrunk below what it already applied reports it as corrupt; bytes past `committed` that do not
 * end in a newline are a write torn by a crash, never acknowledged, skipped and later truncated.
 * The header is not synced on its own: after a power loss it can lag one write behind, which only
 * leaves that last line unprotected, never raises a false alarm. Journals written before the
 * field existed have no such protection until the store upgrades them (see the engine).
 *
 * An append may leave its sync to later (`sync: false`, an agent run's user message): its line is
 * written (every reader sees it, a crash of the process keeps it) but not fsynced, and the header
 * is not moved past it (so a power loss that drops it never looks like a truncation). Whatever
 * syncs the file next covers it, since fdatasync flushes the whole file: a synced append, `sync`,
 * closing the handle, or, at the latest, a timer a second after the line was written.
 *
 * Appends go through a handle kept open between them (closed after a second without one), so a
 * turn does not open and close the file per write. The handle is used only while it is the file
 * the cursor follows: every append comes after a refresh that stat'ed the path and found the
 * inode the cursor read (the engine's `isCaughtUp`/`read` under the lock), and a journal replaced
 * by a compaction (a new inode) gets a new handle.
 */
export class JournalFile {
  /** Inode of the journal read so far; undefined when there is none. */
  private ino: number | undefined;
  /** Bytes consumed: the header and every complete line applied. */
  private offset = 0;
  /** Size of the file when last seen. */
  private size = 0;
  /** The journal belongs to an older generation (a compaction stopped half way): ignored, replaced on the next write. */
  private stale = false;
  /** Byte position of the header's `committed` field; undefined for a journal written before it existed. */
  private committedAt: number | undefined;
  /** The handle appends write through, open on the file of inode `handleIno`. */
  private handle: FileHandle | undefined;
  private handleIno: number | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Started by the first line written without its sync: syncs `DEFERRED_SYNC_MS` later if nothing did. */
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  /** Lines written through the handle, counted; `synced`: how many of them a finished fdatasync covers. */
  private written = 0;
  private synced = 0;
  /** A sync made on no caller's behalf (closing the handle, the idle timer) failed: `sync` reports it. */
  private syncFailure: unknown;

  constructor(
    readonly path: string,
    private readonly writer: AtomicWriter,
    private readonly fsync: boolean,
    /** The engine's in-process queue: the idle timer closes (and syncs) the handle on it, never during another operation. */
    private readonly enqueue: <T>(body: () => Promise<T>) => Promise<T>,
  ) {}

  /** Forgets what was read: the next read starts from the header. */
  reset(): void {
    this.ino = undefined;
    this.offset = 0;
    this.size = 0;
    this.stale = false;
    this.committedAt = undefined;
  }

  /** True when the last read found no journal. */
  get missing(): boolean {
    return this.ino === undefined;
  }

  /** True when the journal read last has no `committed` field (written by an older version). */
  get legacy(): boolean {
    return this.ino !== undefined && !this.stale && this.committedAt === undefined;
  }

  /** True when the file seen by one `stat` holds nothing this cursor has not applied. */
  isCaughtUp(stats: { ino: number; size: number } | undefined): boolean {
    if (!stats) return this.ino === undefined;
    if (stats.ino !== this.ino || !(this.stale || stats.size === this.offset)) return false;
    this.size = stats.size;
    return true;
  }

  /**
   * Applies, through `apply`, every complete line not applied yet, for a state at `generation`.
   * `snapshotExists`: a snapshot always has a journal beside it, so a missing one is corruption.
   */
  async read(
    generation: number,
    snapshotExists: boolean,
    apply: (operation: JournalOperation) => void,
  ): Promise<JournalRead> {
    const journal = await openIfExists(this.path);
    if (!journal) {
      if (snapshotExists || (this.ino !== undefined && this.offset > 0 && !this.stale)) {
        return {
          kind: "corrupt",
          reason:
            "the journal is missing: it was deleted or moved, and the changes written since the last compaction with it",
        };
      }
      this.reset();
      return { kind: "done" };
    }
    try {
      // The header first: a writer rewrites `committed` only after its line is in the file.
      const headerBytes = Buffer.allocUnsafe(HEADER_READ);
      const { bytesRead: headerRead } = await journal.read(headerBytes, 0, HEADER_READ, 0);
      const headerEnd = headerBytes.subarray(0, headerRead).indexOf(10);
      const header: JournalHeader | undefined =
        headerEnd === -1 ? undefined : parseJournalHeader(headerBytes.toString("utf8", 0, headerEnd));
      if (!header)
        return {
          kind: "corrupt",
          reason: headerRead === 0 ? "the journal is empty" : "the journal has no valid header line",
        };
      const stats = await journal.stat();
      if (stats.ino !== this.ino) {
        if (this.ino !== undefined && !this.stale) return { kind: "restart" }; // another journal than the one applied
        this.reset();
        this.ino = stats.ino;
      }
      this.size = stats.size;
      if (this.offset === 0) {
        if (header.generation < generation) {
          this.stale = true;
          return { kind: "done" };
        }
        if (header.generation > generation) {
          this.ino = undefined;
          return { kind: "restart" }; // a compaction replaced the snapshot after it was read
        }
        this.offset = headerEnd + 1;
        this.committedAt = header.committedAt;
      }
      if (this.stale) return { kind: "done" };
      if (stats.size < this.offset)
        return {
          kind: "corrupt",
          reason: `the journal shrank to ${stats.size} bytes after ${this.offset} were read: it was truncated`,
        };
      const length = stats.size - this.offset;
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = length === 0 ? { bytesRead: 0 } : await journal.read(buffer, 0, length, this.offset);
      let start = 0;
      for (
        let newline = buffer.indexOf(10, 0);
        newline !== -1 && newline < bytesRead;
        newline = buffer.indexOf(10, start)
      ) {
        let operation: JournalOperation;
        try {
          operation = parseOperation(buffer.toString("utf8", start, newline));
        } catch (error) {
          return {
            kind: "corrupt",
            reason: `line at byte ${this.offset + start} does not parse: ${errorText(error)}`,
            cause: error,
          };
        }
        apply(operation);
        start = newline + 1;
      }
      // Bytes after the last newline are a line still being written, or cut short by a crash:
      // never acknowledged, so not applied. The next writer truncates them.
      this.offset += start;
      if (header.committed !== undefined && this.offset < header.committed) {
        return {
          kind: "corrupt",
          reason: `its whole lines end at byte ${this.offset} but ${header.committed} bytes were written and acknowledged: it was truncated`,
        };
      }
      return { kind: "done" };
    } finally {
      await journal.close();
    }
  }

  /**
   * Under the lock, on a cursor brought up to date: appends one change. `sync` (the default):
   * fsyncs it (and every line written before it), then records the new length in the header.
   * Without: only writes it; `sync` or the next synced append makes it durable.
   */
  async append(
    operation: JournalOperation,
    generation: number,
    { sync = true, fence }: { sync?: boolean; fence?: () => void } = {},
  ): Promise<void> {
    const line = Buffer.from(`${serializeOperation(operation)}\n`, "utf8");
    try {
      const handle = await this.prepare(generation, fence);
      // `fence` throws when the writer lost a lock it needs: checked synchronously, with no await
      // between it and the write, so a refused write leaves nothing in the journal.
      fence?.();
      // The writes are synchronous (a page-cache copy of a few hundred bytes); only the sync waits on the disk.
      writeFullySync(handle.fd, line, this.offset);
      this.written++;
      if (this.fsync && sync) await this.datasync(handle);
      else if (this.fsync) this.armDeferredSync();
      this.offset += line.length;
      this.size = this.offset;
      if (this.committedAt !== undefined && (sync || !this.fsync))
        writeFullySync(handle.fd, Buffer.from(committedField(this.offset), "utf8"), this.committedAt);
    } catch (error) {
      await this.closeHandle();
      throw error;
    }
    this.armIdleClose();
  }

  /**
   * Makes every line written so far durable: fdatasync when an append left its sync to later.
   * Throws when a sync made in the background since the last call failed (its lines may be lost).
   */
  async sync(): Promise<void> {
    const failure = this.syncFailure;
    if (failure !== undefined) {
      this.syncFailure = undefined;
      throw failure;
    }
    if (this.fsync && this.synced < this.written && this.handle) await this.datasync(this.handle);
  }

  /** Closes the append handle (it reopens on the next append), syncing first any line written without its sync. */
  async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = this.handleIno = undefined;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!handle) return;
    await this.syncInBackground(handle);
    await handle.close().catch(() => {});
  }

  /** Syncs lines written without their sync, for no caller: a failure is kept for the next `sync` to report. */
  private async syncInBackground(handle: FileHandle | undefined): Promise<void> {
    if (!handle || !this.fsync || this.synced >= this.written) return;
    try {
      await this.datasync(handle);
    } catch (error) {
      this.syncFailure = error;
      this.synced = this.written; // reported once, by `sync`, not retried: after a failed fsync a retry proves nothing
    }
  }

  /** fdatasync, then counts every line written before it started as durable. */
  private async datasync(handle: FileHandle): Promise<void> {
    const covered = this.written;
    await handle.datasync();
    this.synced = Math.max(this.synced, covered);
  }

  /** The journal's size when last seen. */
  get bytes(): number {
    return this.size;
  }

  /** Replaces the journal with an empty one for `generation` (temp file and rename); the append handle then writes to the new file. */
  async replace(generation: number, fence?: () => void): Promise<void> {
    const header = journalHeader(generation);
    await this.closeHandle();
    await this.writer.write(this.path, header, fence);
    const handle = await open(this.path, "r+");
    let stats: Stats;
    try {
      stats = await handle.stat();
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.reset();
    this.ino = stats.ino;
    this.offset = this.size = Buffer.byteLength(header);
    this.committedAt = parseJournalHeader(header.slice(0, -1))?.committedAt;
    this.keepHandle(handle, stats.ino);
  }

  /** Makes sure the journal exists for the current generation and ends with a whole line; returns the handle to append with. */
  private async prepare(generation: number, fence: (() => void) | undefined): Promise<FileHandle> {
    if (this.ino === undefined || this.stale) await this.replace(generation, fence);
    if (this.handle === undefined || this.handleIno !== this.ino) {
      await this.closeHandle();
      const handle = await open(this.path, "r+");
      let stats: Stats;
      try {
        stats = await handle.stat();
      } catch (error) {
        await handle.close();
        throw error;
      }
      this.keepHandle(handle, stats.ino);
      // The path now names another file than the one read (replaced since the refresh): never append to it blind.
      if (stats.ino !== this.ino) {
        await this.closeHandle();
        throw new Error(`${this.path} was replaced while the lock was held`);
      }
    }
    if (this.size > this.offset) {
      fence?.();
      await this.handle!.truncate(this.offset);
      this.size = this.offset;
    }
    return this.handle!;
  }

  private keepHandle(handle: FileHandle, ino: number): void {
    this.handle = handle;
    this.handleIno = ino;
    this.armIdleClose();
  }

  /**
   * A second after a line was written without its sync, syncs it if nothing has (on the queue).
   * Not pushed back by later appends, so no line waits longer. Unref'd: a run syncs its own lines
   * before it settles; the timer only bounds how long one waits while a model answers.
   */
  private armDeferredSync(): void {
    if (this.syncTimer) return;
    const timer = setTimeout(() => {
      this.syncTimer = undefined;
      void this.enqueue(() => this.syncInBackground(this.handle)).catch(() => {});
    }, DEFERRED_SYNC_MS);
    timer.unref();
    this.syncTimer = timer;
  }

  /** Closes the handle after a second without appends, on the queue (never during an operation). */
  private armIdleClose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const timer = setTimeout(() => {
      void this.enqueue(async () => {
        if (this.idleTimer === timer) await this.closeHandle();
      }).catch(() => {});
    }, IDLE_CLOSE_MS);
    timer.unref();
    this.idleTimer = timer;
  }
}

/** Writes all of `buffer` at `position` (a short write continues where it stopped). */
function writeFullySync(fd: number, buffer: Buffer, position: number): void {
  for (let written = 0; written < buffer.length; )
    written += writeSync(fd, buffer, written, buffer.length - written, position + written);
}
