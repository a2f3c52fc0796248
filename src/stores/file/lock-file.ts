import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import { releaseOnExit } from "./lock-file-exit";

/**
 * What a look at a lock file saw: `id` names that one lock (the token its holder wrote in it; for
 * an empty file, a crashed creator's, or an older version's directory: inode and mtime), `stale`
 * whether its mtime is older than the stale time.
 */
export interface SeenLock {
  id: string;
  stale: boolean;
}

/**
 * Cross-process locks made of files, with a takeover of a stale lock that is atomic.
 *
 * **Taking a free lock** is an exclusive create (`O_CREAT | O_EXCL`): exactly one process
 * succeeds while nothing is at the path. The holder writes a unique token into the file and
 * refreshes its mtime while it holds it; a lock whose mtime is older than the stale time belongs
 * to a dead (or stalled) process.
 *
 * **Removing a lock** — breaking a stale one, or its holder releasing it — is where a plain
 * stat → unlink → create goes wrong: two breakers both see the same stale lock, the first removes
 * it and creates its own, and the second removes the first one's fresh lock and creates another,
 * so two processes hold it. Here a lock is only ever removed by the process that owns its
 * *claim*: a file `<lock>.break-<hash of the lock's id>.<n>` created with `O_EXCL`, so at most one
 * process owns the claim on one lock at a time. The claim's owner then looks at the lock again
 * and removes it only if it is still the very lock it claimed (same id; for a break, still
 * stale). Nothing else can remove or replace that lock meanwhile (removing needs the claim;
 * creating needs the path free), so the look and the removal act on the same lock, and a lock
 * is removed at most once: a second breaker that saw the same stale lock either fails to create
 * the claim, or creates it after the first released it and then finds another lock (or none)
 * at the path, and leaves it alone. After the removal the path is free and the exclusive create
 * decides again who takes it, one process only. A holder releasing its own lock takes the same
 * claim, so a holder that wakes up after its lock was broken never removes its successor's; only
 * when its lock is still its own and was refreshed less than half the stale time ago does it
 * unlink it directly (no breaker can act on it for another half stale time; see `release`).
 *
 * A claim lives for a few system calls. One older than the stale time was left by a breaker
 * that died holding it: the next breaker creates the claim numbered one higher instead (again
 * with `O_EXCL`), so a dead breaker never blocks a lock forever; the claims of a lock are removed
 * by whoever removed the lock. The one assumption, as for any lease: no process stalls longer
 * than the stale time in the middle of those few system calls.
 */
export class LockFile {
  /** Inode of the file this holder created: held open, so the inode number cannot be reused while held. */
  private readonly ino: number;
  private readonly fd: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private released = false;

  private constructor(
    readonly path: string,
    private readonly token: string,
    fd: number,
    private readonly staleMs: number,
  ) {
    this.fd = fd;
    this.ino = fs.fstatSync(fd).ino;
    this.scheduleRefresh();
    releaseOnExit.add(this);
  }

  /**
   * Takes the lock at `path` if nothing is there. Otherwise returns what is there (`undefined`
   * when it vanished meanwhile: try again).
   */
  static tryTake(path: string, staleMs: number): LockFile | SeenLock | undefined {
    const token = `${process.pid}-${randomUUID()}`;
    let fd: number;
    try {
      fd = fs.openSync(path, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      return look(path, staleMs);
    }
    try {
      writeAll(fd, Buffer.from(token));
    } catch (error) {
      fs.closeSync(fd);
      fs.unlinkSync(path);
      throw error;
    }
    return new LockFile(path, token, fd, staleMs);
  }

  /**
   * Removes the stale lock `seen` from `path`, if it is still that lock and still stale (see the
   * class comment). False when another process is removing it or it changed: look again.
   */
  static breakStale(path: string, seen: SeenLock, staleMs: number): boolean {
    return withClaim(path, seen.id, staleMs, () => {
      const now = look(path, staleMs);
      if (now?.id !== seen.id || !now.stale) return false;
      remove(path);
      return true;
    });
  }

  /**
   * True while the file at the path is still the one this holder created: one stat, compared by
   * inode (the open descriptor keeps the inode from being reused by another file).
   */
  isHeld(): boolean {
    if (this.released) return false;
    try {
      return fs.statSync(this.path).ino === this.ino;
    } catch {
      return false;
    }
  }

  /** Removes the lock if it is still this holder's (under its claim, see the class comment). Synchronous, never throws. */
  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.timer);
    releaseOnExit.delete(this);
    try {
      // Fast path, the common case: the lock is this holder's and was refreshed less than half the
      // stale time ago. A breaker removes a lock only after seeing it stale under its claim, that
      // is at least half the stale time after this look, and the unlink follows the look at once:
      // the lock cannot be broken in between. Otherwise (a holder that stalled), under the claim.
      const stats = fs.statSync(this.path, { throwIfNoEntry: false });
      if (stats?.ino === this.ino && stats.mtimeMs >= Date.now() - this.staleMs / 2) fs.unlinkSync(this.path);
      else
        withClaim(this.path, `token:${this.token}`, this.staleMs, () => {
          if (this.isHeldUnreleased()) remove(this.path);
          return true;
        });
    } catch {
      // a lock that cannot be removed goes stale and is broken
    } finally {
      fs.closeSync(this.fd);
    }
  }

  private isHeldUnreleased(): boolean {
    try {
      return fs.statSync(this.path).ino === this.ino;
    } catch {
      return false;
    }
  }

  /** Touches the file every half stale time while it is still this holder's. The timer is unref'd. */
  private scheduleRefresh(): void {
    this.timer = setTimeout(
      () => {
        if (this.released || !this.isHeld()) return;
        try {
          const now = new Date();
          fs.futimesSync(this.fd, now, now);
        } catch {
          // the next refresh tries again; a lock not refreshed goes stale
        }
        this.scheduleRefresh();
      },
      Math.max(100, Math.floor(this.staleMs / 2)),
    );
    this.timer.unref?.();
  }
}

/** What is at `path` now, or undefined when nothing is. */
function look(path: string, staleMs: number): SeenLock | undefined {
  let fd: number;
  try {
    fd = fs.openSync(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code !== "EISDIR" && code !== "EPERM") throw error;
    return seenDirectory(path, staleMs); // a directory that cannot be opened (Windows)
  }
  try {
    const stats = fs.fstatSync(fd);
    const stale = stats.mtimeMs < Date.now() - staleMs;
    if (stats.isDirectory()) return { id: `directory:${stats.ino}:${stats.mtimeMs}`, stale };
    const content = fs.readFileSync(fd, "utf8");
    // Empty: a creator that has not written its token yet (its mtime is fresh) or died before.
    return { id: content === "" ? `empty:${stats.ino}:${stats.mtimeMs}` : `token:${content}`, stale };
  } finally {
    fs.closeSync(fd);
  }
}

function seenDirectory(path: string, staleMs: number): SeenLock | undefined {
  try {
    const stats = fs.statSync(path);
    return { id: `directory:${stats.ino}:${stats.mtimeMs}`, stale: stats.mtimeMs < Date.now() - staleMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Runs `body` owning the claim on the lock named `id` (see `LockFile`): returns false without
 * running it when a live process owns the claim. Claims older than `staleMs` were left by a dead
 * process: the next number is tried. All claims of the lock up to the one taken are removed after.
 */
function withClaim(path: string, id: string, staleMs: number, body: () => boolean): boolean {
  const base = `${path}.break-${createHash("sha256").update(id).digest("hex").slice(0, 16)}`;
  let number = 0;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(`${base}.${number}`, "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    try {
      if (fs.statSync(`${base}.${number}`).mtimeMs >= Date.now() - staleMs) return false; // a live breaker
      number++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error; // gone meanwhile: try it again
    }
  }
  try {
    return body();
  } finally {
    for (let claim = number; claim >= 0; claim--) unlinkIfExists(`${base}.${claim}`);
  }
}

/** Removes a lock: a file, or the directory an older version made (unlink refuses it: EISDIR on Linux, EPERM elsewhere). */
function remove(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code !== "EISDIR" && code !== "EPERM") throw error;
    fs.rmdirSync(path);
  }
}

function unlinkIfExists(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function writeAll(fd: number, buffer: Buffer): void {
  for (let written = 0; written < buffer.length; ) written += fs.writeSync(fd, buffer, written);
}
