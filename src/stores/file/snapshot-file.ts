import type { Stats } from "node:fs";
import { open } from "node:fs/promises";
import type { AtomicWriter } from "./atomic-writer";
import { parseSnapshot, serializeSnapshot, type FileState } from "./file-state";
import { openIfExists, statIfExistsSync } from "./optional-file";

/** What loading the snapshot found. */
export type SnapshotLoad =
  /** The file is the version loaded last: the state built on it is still good. */
  | { kind: "unchanged" }
  /** The file was replaced (or appeared, or vanished): the state it holds, empty when there is none. */
  | { kind: "loaded"; state: FileState }
  /** The file does not parse. */
  | { kind: "corrupt"; error: unknown };

/**
 * `<path>`: the snapshot, pretty JSON, replaced whole at each compaction. Remembers which
 * version of the file (inode, size, mtime) the in-memory state was built on, so a refresh
 * reloads it only when another process replaced it.
 */
export class SnapshotFile {
  /** The version loaded last: `ino:size:mtime`, `"missing"`, or undefined before the first load. */
  private identity: string | undefined;
  /** Its size in bytes. */
  size = 0;

  constructor(
    readonly path: string,
    private readonly writer: AtomicWriter,
  ) {}

  /** One `stat` (synchronous: microseconds, cheaper than a thread-pool round trip): true when the file is the version loaded last. */
  isUnchanged(): boolean {
    const stats = statIfExistsSync(this.path);
    return (stats ? identityOf(stats) : "missing") === this.identity;
  }

  /** True when the last load found no file. */
  get missing(): boolean {
    return this.identity === "missing";
  }

  /** Makes the next `load` read the file again. */
  forget(): void {
    this.identity = undefined;
  }

  async load(initial: () => FileState): Promise<SnapshotLoad> {
    const snapshot = await openIfExists(this.path);
    try {
      const stats = snapshot ? await snapshot.stat() : undefined;
      const identity = stats ? identityOf(stats) : "missing";
      if (identity === this.identity) return { kind: "unchanged" };
      let state = initial();
      if (snapshot) {
        const text = await snapshot.readFile("utf8");
        try {
          state = parseSnapshot(text);
        } catch (error) {
          return { kind: "corrupt", error };
        }
      }
      this.identity = identity;
      this.size = stats?.size ?? 0;
      return { kind: "loaded", state };
    } finally {
      await snapshot?.close();
    }
  }

  /** Replaces the snapshot with `state` at `generation` (temp file, fsync, `fence`, rename, directory fsync). */
  async write(state: FileState, generation: number, fence?: () => void): Promise<void> {
    await this.writer.write(this.path, serializeSnapshot(state, generation), fence);
    const handle = await open(this.path, "r");
    try {
      const stats = await handle.stat();
      this.identity = identityOf(stats);
      this.size = stats.size;
    } finally {
      await handle.close();
    }
  }
}

/** Identifies one version of the snapshot: a replacement (rename) changes the inode. */
function identityOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}
