import { SessionBusyError } from "../errors/session-busy-error";

/**
 * Serialises runs on one session within this process: a second run waits for the first
 * (`queue`) or fails at once (`reject`). Different sessions never wait for each other.
 */
export class SessionQueue {
  private static readonly byStore = new WeakMap<object, SessionQueue>();

  /**
   * The queue of one store: every Agent (and every streamText call) on the same store object
   * shares it, so runs on one session wait for each other even across agent instances.
   */
  static for(store: object): SessionQueue {
    let queue = SessionQueue.byStore.get(store);
    if (!queue) {
      queue = new SessionQueue();
      SessionQueue.byStore.set(store, queue);
    }
    return queue;
  }

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
