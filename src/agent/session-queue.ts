import { SessionBusyError } from "../errors/session-busy-error";

/**
 * Serialises runs on one session within this process: a second run waits for the first
 * (`queue`) or fails at once (`reject`). Different sessions never wait for each other.
 */
export class SessionQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for the session to be free and returns the function that frees it again. */
  async acquire(sessionId: string, policy: "queue" | "reject"): Promise<() => void> {
    const previous = this.tails.get(sessionId);
    if (previous && policy === "reject") throw new SessionBusyError({ sessionId });
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = (previous ?? Promise.resolve()).then(() => current);
    this.tails.set(sessionId, tail);
    if (previous) await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    };
  }
}
