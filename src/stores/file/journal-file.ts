import { open, truncate } from "node:fs/promises";
import type { AtomicWriter } from "./atomic-writer";
import { journalHeader, parseJournalHeader, parseOperation, type JournalOperation } from "./file-state";
import { openIfExists } from "./optional-file";

/** What a read of the journal found. */
export type JournalRead =
  /** Every complete line not seen before was applied (or the journal is stale and ignored). */
  | { kind: "done" }
  /** The journal no longer continues what was applied (a compaction replaced the files): reload the snapshot. */
  | { kind: "restart" }
  /** The journal does not parse. */
  | { kind: "corrupt"; reason: string; cause?: unknown };

/**
 * `<path>.journal`: JSON Lines, a header `{ format, generation }` then one change per line,
 * appended under the lock. Keeps a cursor on the lines applied so far, so a refresh reads only
 * the bytes it has not seen yet.
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

  constructor(
    readonly path: string,
    private readonly writer: AtomicWriter,
    private readonly fsync: boolean,
  ) {}

  /** Forgets what was read: the next read starts from the header. */
  reset(): void {
    this.ino = undefined;
    this.offset = 0;
    this.size = 0;
    this.stale = false;
  }

  /** True when the file seen by one `stat` holds nothing this cursor has not applied. */
  isCaughtUp(stats: { ino: number; size: number } | undefined): boolean {
    if (!stats) return this.ino === undefined;
    if (stats.ino !== this.ino || !(this.stale || stats.size === this.offset)) return false;
    this.size = stats.size;
    return true;
  }

  /** Applies, through `apply`, every complete line not applied yet, for a state at `generation`. */
  async read(generation: number, apply: (operation: JournalOperation) => void): Promise<JournalRead> {
    const journal = await openIfExists(this.path);
    if (!journal) {
      if (this.ino !== undefined && this.offset > 0 && !this.stale) return { kind: "restart" }; // applied lines vanished
      this.reset();
      return { kind: "done" };
    }
    try {
      const stats = await journal.stat();
      if (stats.ino !== this.ino) {
        if (this.ino !== undefined && !this.stale) return { kind: "restart" }; // another journal than the one applied
        this.reset();
        this.ino = stats.ino;
      }
      this.size = stats.size;
      if (this.stale || stats.size <= this.offset) return { kind: "done" };
      const length = stats.size - this.offset;
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await journal.read(buffer, 0, length, this.offset);
      let start = 0;
      for (let newline = buffer.indexOf(10, 0); newline !== -1 && newline < bytesRead; newline = buffer.indexOf(10, start)) {
        const line = buffer.toString("utf8", start, newline);
        if (this.offset === 0 && start === 0) {
          const header = parseJournalHeader(line);
          if (header === undefined) return { kind: "corrupt", reason: "the journal has no valid header line" };
          if (header < generation) {
            this.stale = true;
            return { kind: "done" };
          }
          if (header > generation) {
            this.ino = undefined;
            return { kind: "restart" }; // a compaction replaced the snapshot after it was read
          }
        } else {
          let operation: JournalOperation;
          try {
            operation = parseOperation(line);
          } catch (error) {
            return { kind: "corrupt", reason: `line at byte ${this.offset + start} does not parse: ${errorText(error)}`, cause: error };
          }
          apply(operation);
        }
        start = newline + 1;
      }
      // Bytes after the last newline are a line still being written, or cut short by a crash:
      // never acknowledged, so not applied. The next writer truncates them.
      this.offset += start;
      return { kind: "done" };
    } finally {
      await journal.close();
    }
  }

  /** Under the lock, on a cursor brought up to date: appends one change and syncs it. */
  async append(operation: JournalOperation, generation: number): Promise<void> {
    await this.prepare(generation);
    const line = Buffer.from(`${JSON.stringify(operation)}\n`, "utf8");
    const handle = await open(this.path, "a");
    try {
      await handle.writeFile(line);
      if (this.fsync) await handle.datasync();
    } finally {
      await handle.close();
    }
    this.offset += line.length;
    this.size = this.offset;
  }

  /** The journal's size when last seen. */
  get bytes(): number {
    return this.size;
  }

  /** Replaces the journal with an empty one for `generation` (temp file and rename). */
  async replace(generation: number): Promise<void> {
    const header = journalHeader(generation);
    await this.writer.write(this.path, header);
    const handle = await open(this.path, "r");
    try {
      const stats = await handle.stat();
      this.reset();
      this.ino = stats.ino;
      this.offset = this.size = Buffer.byteLength(header);
    } finally {
      await handle.close();
    }
  }

  /** Makes sure the journal exists for the current generation and ends with a whole line. */
  private async prepare(generation: number): Promise<void> {
    if (this.ino === undefined || this.stale) {
      await this.replace(generation);
    } else if (this.size > this.offset) {
      await truncate(this.path, this.offset);
      this.size = this.offset;
    }
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
