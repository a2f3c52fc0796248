import { SessionBusyError } from "../errors/session-busy-error";
import { waitUnlessAborted } from "./wait-unless-aborted";

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

  /**
   * Waits for the session to be free and returns the function that frees it again. When
   * `signal` aborts while it waits, rejects with an `AbortError` at once; its place in the queue
   * then passes straight on (the runs behind it still wait for the runs before it).
   */
  async acquire(sessionId: string, policy: "queue" | "reject", signal?: AbortSignal): Promise<() => void> {
    const previous = this.tails.get(sessionId);
    if (previous && policy === "reject") throw new SessionBusyError({ sessionId });
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = (previous ?? Promise.resolve()).then(() => current);
    this.tails.set(sessionId, tail);
    const forget = () => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    };
    if (previous) {
      try {
        await waitUnlessAborted(previous, signal, sessionId);
      } catch (error) {
        // Gone from the queue: the runs behind it now wait only for the ones before it.
        release();
        if (this.tails.get(sessionId) === tail) this.tails.set(sessionId, previous);
        throw error;
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      forget();
    };
  }
}
