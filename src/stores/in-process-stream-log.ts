// The stream log kept in this process (`StreamLog`, stream-log.ts): the in-memory, file and SQLite
// stores' and any user's store's. A stream resumes on the process that runs it only.
import { chunkBytes, type StreamLog, type StreamState } from "./stream-log";

interface Recorded {
  sessionId: string;
  chunks: string[];
  bytes: number;
  state: StreamState;
  /** When the log may be deleted (ms since the epoch): its TTL after the last write. */
  expiresAt: number;
  /** Followers waiting for more (`follow`). */
  waiters: Set<() => void>;
}

const key = (sessionId: string, streamId: string) => `${sessionId}\u0000${streamId}`;

/** Logs shared by name (a file store's path), so two store objects on one file share their streams. */
const shared = new Map<string, StreamLog>();

/**
 * A stream log in this process. With `name`, the one log of that name in this process (a file or
 * SQLite store keys it by its path, so two store objects on one file share their streams).
 */
export function inProcessStreamLog(name?: string): StreamLog {
  if (name !== undefined) {
    let log = shared.get(name);
    if (!log) shared.set(name, (log = inProcessStreamLog()));
    return log;
  }
  const streams = new Map<string, Recorded>();
  const latest = new Map<string, string>();
  /** Deletes the expired logs (on each `begin`: the cost stays with the writers). */
  const sweep = (now: number) => {
    for (const [id, recorded] of streams) {
      if (recorded.expiresAt > now) continue;
      streams.delete(id);
      wake(recorded);
    }
    for (const [sessionId, streamId] of latest) if (!streams.has(key(sessionId, streamId))) latest.delete(sessionId);
  };
  const live = (sessionId: string, streamId: string): Recorded | undefined => {
    const recorded = streams.get(key(sessionId, streamId));
    if (recorded && recorded.expiresAt <= Date.now()) {
      streams.delete(key(sessionId, streamId));
      wake(recorded);
      return undefined;
    }
    return recorded;
  };
  const wake = (recorded: Recorded) => {
    const waiters = [...recorded.waiters];
    recorded.waiters.clear();
    for (const resolve of waiters) resolve();
  };
  return {
    scope: "process",
    async begin(sessionId, streamId, limits) {
      const now = Date.now();
      sweep(now);
      streams.set(key(sessionId, streamId), {
        sessionId,
        chunks: [],
        bytes: 0,
        state: "running",
        expiresAt: now + limits.ttlMs,
        waiters: new Set(),
      });
      latest.set(sessionId, streamId);
    },
    async append(sessionId, streamId, chunks, limits) {
      const recorded = live(sessionId, streamId);
      if (recorded?.state !== "running") return false;
      let bytes = recorded.bytes;
      for (const chunk of chunks) bytes += chunkBytes(chunk);
      if (bytes > limits.maxBytes) recorded.state = "overflow";
      else {
        recorded.chunks.push(...chunks);
        recorded.bytes = bytes;
      }
      recorded.expiresAt = Date.now() + limits.ttlMs;
      wake(recorded);
      return recorded.state === "running";
    },
    async end(sessionId, streamId, limits) {
      const recorded = live(sessionId, streamId);
      if (!recorded) return;
      if (recorded.state === "running") recorded.state = "done";
      recorded.expiresAt = Date.now() + limits.ttlMs;
      wake(recorded);
    },
    async latest(sessionId) {
      const streamId = latest.get(sessionId);
      if (streamId === undefined) return undefined;
      if (!live(sessionId, streamId)) {
        latest.delete(sessionId);
        return undefined;
      }
      return streamId;
    },
    async read(sessionId, streamId, from) {
      const recorded = live(sessionId, streamId);
      if (!recorded) return { chunks: [], state: undefined };
      return { chunks: recorded.chunks.slice(from), state: recorded.state };
    },
    follow(sessionId, streamId, signal) {
      const wait = (known: number) => {
        const recorded = live(sessionId, streamId);
        if (!recorded || recorded.chunks.length > known || recorded.state !== "running" || signal.aborted)
          return Promise.resolve();
        return new Promise<void>((resolve) => {
          const done = () => {
            recorded.waiters.delete(done);
            signal.removeEventListener("abort", done);
            resolve();
          };
          recorded.waiters.add(done);
          signal.addEventListener("abort", done, { once: true });
        });
      };
      return { wait, close: async () => {} };
    },
  };
}
