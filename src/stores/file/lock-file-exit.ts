/** What `releaseOnExit` releases: a held lock file. */
interface Releasable {
  release(): void;
}

const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The lock files this process holds, released when it exits, so the next process does not wait
 * out the stale time: on `exit` (a normal end, `process.exit()`), and on SIGINT, SIGTERM and
 * SIGHUP when nothing else listens for them (the process is about to die of the signal: the locks
 * are released and the signal raised again, so it still dies of it). When the application has its
 * own handler for the signal, the process is not ending because of it and the locks stay held.
 * The handlers are installed with the first lock and stay (installing a signal handler costs more
 * than a whole lock; with no lock held, one does what the signal's default would: the process
 * dies of it). A SIGKILL cannot be caught: those locks go
 * stale and are broken after the stale time.
 */
class ReleaseOnExit {
  private readonly held = new Set<Releasable>();
  private readonly onSignal = new Map<string, () => void>();

  private installed = false;

  add(lock: Releasable): void {
    this.held.add(lock);
    if (!this.installed) this.install();
  }

  delete(lock: Releasable): void {
    this.held.delete(lock);
  }

  private readonly onExit = (): void => this.releaseAll();

  private releaseAll(): void {
    for (const lock of [...this.held]) lock.release();
  }

  private install(): void {
    this.installed = true;
    process.once("exit", this.onExit);
    for (const signal of signals) {
      const handler = (): void => {
        if (process.listenerCount(signal) > 1) return; // the application handles it
        this.releaseAll();
        this.uninstall();
        process.kill(process.pid, signal);
      };
      this.onSignal.set(signal, handler);
      try {
        process.on(signal, handler);
      } catch {
        // a signal this platform does not support
      }
    }
  }

  private uninstall(): void {
    this.installed = false;
    process.removeListener("exit", this.onExit);
    for (const [signal, handler] of this.onSignal) process.removeListener(signal, handler);
    this.onSignal.clear();
  }
}

export const releaseOnExit = new ReleaseOnExit();
