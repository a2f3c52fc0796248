import { randomBytes } from "node:crypto";
import { open, readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";

/**
 * Replaces files beside the store's snapshot atomically: temp file in the same directory,
 * fsync, rename over the target, fsync the directory. Temp files (`<path>.tmp-<pid>-<random>`)
 * exist only while a lock holder writes them.
 */
export class AtomicWriter {
  readonly directory: string;

  constructor(
    /** The snapshot path: temp files are named after it. */
    private readonly path: string,
    private readonly fsync: boolean,
  ) {
    this.directory = dirname(path);
  }

  /** `fence`, when given, is called right before the rename: a throw leaves `target` untouched. */
  async write(target: string, content: string | Buffer, fence?: () => void): Promise<void> {
    const temp = `${this.path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(content);
      if (this.fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      fence?.();
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
    await this.syncDirectory();
  }

  /** Temp files only exist while a lock holder writes them: any found under the lock are leftovers of a crash. */
  async removeLeftoverTemps(): Promise<void> {
    const prefix = `${basename(this.path)}.tmp-`;
    for (const name of await readdir(this.directory)) {
      if (name.startsWith(prefix)) await unlink(resolve(this.directory, name)).catch(() => {});
    }
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
}
