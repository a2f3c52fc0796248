// The log of a turn's UI stream chunks, kept where the store keeps its data so that a client that
// reconnects (`resumeStream`, `useChat({ resume: true })`) replays what was sent and follows the
// rest, on whichever app server it lands (docs/resumable-streams.md; docs/architecture.md, "The
// store backend"). One `StreamLog` per store, reached as `backendOf(store).streamLog`.

/** Bytes of chunks one stream may record; past it the stream stops recording and is no longer resumable. */
export const DEFAULT_STREAM_MAX_BYTES = 4 * 1024 * 1024;
/** Ms a stream's log is kept after its end (and after its last chunk while it runs). */
export const DEFAULT_STREAM_TTL_MS = 5 * 60_000;

/** How a stream's recording stands. */
export type StreamState = "running" | "done" | "overflow";

/** The bounds of a stream's log. */
export interface StreamLogLimits {
  /** Bytes (UTF-8 of the chunks' JSON) a stream may record. @default 4 MiB */
  maxBytes: number;
  /** Ms the log is kept after the stream ends, or after its last chunk while it runs. @default 5 minutes */
  ttlMs: number;
}

/** What `read` gives: the chunks from the index asked for, and how the stream stands. */
export interface StreamSlice {
  chunks: string[];
  /** undefined: the stream is unknown or expired. */
  state: StreamState | undefined;
}

/**
 * A store's stream log. Chunks are opaque strings (a UI message chunk's JSON), numbered from 0 in the
 * order appended. Writes of one stream come from one writer, one call at a time.
 */
export interface StreamLog {
  /** Where the log lives: "process" (this process only) or "store" (every process using the store). */
  readonly scope: "process" | "store";
  /** Starts recording a stream and makes it the session's latest (what `latest` answers). */
  begin(sessionId: string, streamId: string, limits: StreamLogLimits): Promise<void>;
  /**
   * Appends chunks in order. Resolves to false, recording nothing, when they would pass `maxBytes`:
   * the stream is then marked `overflow` and ends (later appends are refused too).
   */
  append(sessionId: string, streamId: string, chunks: string[], limits: StreamLogLimits): Promise<boolean>;
  /** Ends the stream: its log is kept `ttlMs` more, then deleted. Does nothing on an overflowed stream. */
  end(sessionId: string, streamId: string, limits: StreamLogLimits): Promise<void>;
  /** The session's latest stream (running, or ended within its TTL), or undefined. */
  latest(sessionId: string): Promise<string | undefined>;
  /** The chunks from index `from` on, and the stream's state, read together. */
  read(sessionId: string, streamId: string, from: number): Promise<StreamSlice>;
  /**
   * Starts following a stream (a client reconnected): the follower's `wait(known)` resolves when the
   * stream may have more than `known` chunks or a new state, or after a while (a poll interval), and
   * at once when `signal` aborts; the caller then reads again. `close()` when done (always).
   */
  follow(sessionId: string, streamId: string, signal: AbortSignal): StreamFollower;
}

/** A client following a stream (`StreamLog.follow`). */
export interface StreamFollower {
  wait(known: number): Promise<void>;
  close(): Promise<void>;
}

/** A follower that reads again every `ms` (the stores without a way to be told of writes). */
export function pollingFollower(ms: number, signal: AbortSignal): StreamFollower {
  return { wait: () => pollDelay(ms, signal), close: async () => {} };
}

/** The bytes of a chunk as the limits count them. */
export function chunkBytes(chunk: string): number {
  // UTF-16 length is within a factor 3 of UTF-8's; count UTF-8 exactly without allocating for ASCII.
  let bytes = 0;
  for (let index = 0; index < chunk.length; index++) {
    const code = chunk.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** Resolves after `ms`, or at once when `signal` aborts (a follower's poll). */
export function pollDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Ms a subscribed follower waits without a message before it reads anyway (a message lost to a reconnect). */
const SUBSCRIBED_POLL_MS = 1_000;

/**
 * A follower woken by the messages each write of the stream sends (Redis: SUBSCRIBE; PostgreSQL:
 * LISTEN), reading again every second without one; polling every `pollMs` if it cannot subscribe.
 * `subscribe` resolves, once subscribed, to the unsubscription.
 */
export function subscribedFollower(
  subscribe: (onMessage: () => void) => Promise<() => Promise<void>>,
  pollMs: number,
  signal: AbortSignal,
): StreamFollower {
  let written = false;
  let wake: (() => void) | undefined;
  const subscribed = subscribe(() => {
    written = true;
    wake?.();
  });
  subscribed.catch(() => {});
  let first = true;
  return {
    async wait() {
      try {
        await subscribed;
      } catch {
        return await pollDelay(pollMs, signal);
      }
      // The first wait only subscribes: a write between the caller's read and the subscription is read now.
      if (first || written) {
        first = false;
        written = false;
        return;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          wake = undefined;
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, SUBSCRIBED_POLL_MS);
        wake = done;
        signal.addEventListener("abort", done, { once: true });
        if (signal.aborted) done();
      });
      written = false;
    },
    async close() {
      const unsubscribe = await subscribed.catch(() => undefined);
      await unsubscribe?.();
    },
  };
}
