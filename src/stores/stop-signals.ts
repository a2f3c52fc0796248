// The store backend's stop group (docs/architecture.md, "The store backend"): how a stop asked for
// anywhere reaches the process whose run holds the session. The in-process registry here serves the
// stores of one process (in-memory, file, SQLite) and a user's store; the Redis, Upstash and
// PostgreSQL stores deliver through their server (`redis/redis-stop-signals.ts`,
// `upstash/upstash-stop-signals.ts`, `postgres/postgres-stop-signals.ts`).

/** Called when a stop is asked for the watched session. */
export type StopListener = () => void;

/** How a store carries a stop from whoever asks (any process) to the run that holds the session. */
export interface StopSignals {
  /**
   * Asks the session's running turn, wherever it runs, to stop. Resolves once the request is on its
   * way (not once the run stopped). A session with no running turn: nothing happens, nothing is kept
   * for a later run.
   */
  requestStop(sessionId: string): Promise<void>;
  /**
   * Calls `onStop` when a stop is asked for the session, until the returned function is called.
   * Resolves once a stop asked from now on is sure to reach `onStop` (a subscription confirmed).
   */
  watchStop(sessionId: string, onStop: StopListener): Promise<() => void>;
}

/** Session → its listeners, for one channel (a store object, or the file or database a store opens). */
type Watchers = Map<string, Set<StopListener>>;

const byObject = new WeakMap<object, Watchers>();
const byName = new Map<string, Watchers>();

/**
 * The listeners of a channel: per store object, or, for a name (`file:/abs/path`), shared by every
 * store object of this process opened on it.
 */
function watchersOf(channel: object | string): Watchers {
  if (typeof channel === "string") {
    let watchers = byName.get(channel);
    if (!watchers) byName.set(channel, (watchers = new Map()));
    return watchers;
  }
  let watchers = byObject.get(channel);
  if (!watchers) byObject.set(channel, (watchers = new Map()));
  return watchers;
}

/**
 * A registry of the runs watching on `channel`, in this process: a stop reaches a run of this
 * process only. `channel`: the store object (in-memory, a user's store), or a name for a backing
 * resource every store object on it shares (the file store's path, the SQLite database's).
 */
export function inProcessStopSignals(channel: object | string): StopSignals {
  const watchers = watchersOf(channel);
  return {
    async requestStop(sessionId) {
      deliverStop(watchers, sessionId);
    },
    async watchStop(sessionId, onStop) {
      return addWatcher(watchers, sessionId, onStop);
    },
  };
}

/**
 * Listeners kept per session, with the moments a remote delivery needs: the first watcher of the
 * store (subscribe) and the last one gone (unsubscribe). The building block of the server-backed
 * signals.
 */
export class LocalStopWatchers {
  private readonly watchers: Watchers = new Map();

  /** How many sessions are watched. */
  get size(): number {
    return this.watchers.size;
  }

  has(sessionId: string): boolean {
    return this.watchers.has(sessionId);
  }

  sessions(): string[] {
    return [...this.watchers.keys()];
  }

  add(sessionId: string, onStop: StopListener): () => void {
    return addWatcher(this.watchers, sessionId, onStop);
  }

  deliver(sessionId: string): void {
    deliverStop(this.watchers, sessionId);
  }
}

function addWatcher(watchers: Watchers, sessionId: string, onStop: StopListener): () => void {
  let listeners = watchers.get(sessionId);
  if (!listeners) watchers.set(sessionId, (listeners = new Set()));
  // A function of its own, so the same listener watched twice is removed twice.
  const entry: StopListener = () => onStop();
  listeners.add(entry);
  return () => {
    const current = watchers.get(sessionId);
    if (!current?.delete(entry)) return;
    if (current.size === 0) watchers.delete(sessionId);
  };
}

function deliverStop(watchers: Watchers, sessionId: string): void {
  const listeners = watchers.get(sessionId);
  if (!listeners) return;
  for (const listener of [...listeners]) {
    try {
      listener();
    } catch {
      // A listener's failure is its run's: the others still stop.
    }
  }
}

/** `timer`, unreferenced where the runtime can (Node): it never keeps a process alive by itself. */
export function unrefTimer<Timer>(timer: Timer): Timer {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** A socket that can stop and start keeping the process alive (Node's `net.Socket`). */
export interface Referable {
  ref?: () => void;
  unref?: () => void;
}
