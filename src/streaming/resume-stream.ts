// The handler of `useChat({ resume: true })`'s reconnect (a GET on the chat's stream route): the
// session's latest resumable stream, replayed from its first chunk and followed live to its end
// (docs/resumable-streams.md).
import { SessionOwnershipError } from "../errors/session-ownership-error";
import { validateSessionId } from "../messages/session-id";
import { backendOf } from "../stores/backend-of";
import type { MemoryStore } from "../stores/memory-store";
import type { StreamFollower } from "../stores/stream-log";
import { UI_MESSAGE_STREAM_HEADERS } from "./ui-message-stream";

export interface ResumeStreamOptions {
  /**
   * The session whose stream to resume: the same one `streamText` ran on, from what the server knows
   * of the caller (a signed cookie, the auth session), never straight from the URL or the body.
   */
  sessionId: string;
  /** The store `streamText` recorded the stream in (`resumable: true`). */
  memoryStore: MemoryStore;
  /**
   * Who is asking (from the auth session), as given to `streamText`: a session another user owns is
   * refused with a `SessionOwnershipError` before anything is read.
   */
  userId?: string;
  /** Stops following when it aborts (pass `request.signal`: a client gone stops costing reads). */
  signal?: AbortSignal;
  /** Headers added to the response. */
  headers?: HeadersInit;
}

/**
 * Answers `useChat`'s reconnect: a `204 No Content` when the session has no resumable stream (none
 * ran, its log expired, or it passed its size bound), else a UI message stream response that replays
 * every chunk the stream sent, from its `start` (which carries the answer's message id, so `useChat`
 * replaces the message it shows under that id instead of adding one) and follows the rest live. A
 * stream that ended within its TTL (5 minutes by default) is replayed whole, once per request.
 */
export async function resumeStream(options: ResumeStreamOptions): Promise<Response> {
  const { sessionId, memoryStore, signal } = options;
  validateSessionId(sessionId);
  const backend = backendOf(memoryStore);
  if (options.userId !== undefined) {
    const owner = (await backend.getSession(sessionId))?.userId;
    if (owner !== undefined && owner !== options.userId)
      throw new SessionOwnershipError({ sessionId, userId: options.userId });
  }
  const log = backend.streamLog;
  const streamId = await log.latest(sessionId);
  if (streamId === undefined) return noContent(options.headers);
  const first = await log.read(sessionId, streamId, 0);
  if (first.state === undefined || first.state === "overflow" || first.chunks.length === 0)
    return noContent(options.headers);

  const encoder = new TextEncoder();
  const following = new AbortController();
  const stopFollowing = () => following.abort();
  signal?.addEventListener("abort", stopFollowing, { once: true });
  let slice = first;
  let position = 0;
  /** Made when the replay has caught up (a response never read holds nothing). */
  let follower: StreamFollower | undefined;
  const stop = () => {
    signal?.removeEventListener("abort", stopFollowing);
    // Nothing to report a failed close to: the follower's subscription ends with its connection.
    follower?.close().catch(() => {});
    follower = undefined;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (slice.chunks.length === 0) {
          if (slice.state !== "running" || following.signal.aborted) {
            // done: the whole stream was sent; expired or overflowed: it ends where it was recorded.
            if (slice.state === "done") controller.enqueue(encoder.encode("data: [DONE]\n\n"));
            stop();
            controller.close();
            return;
          }
          follower ??= log.follow(sessionId, streamId, following.signal);
          await follower.wait(position);
          slice = await log.read(sessionId, streamId, position);
        }
        position += slice.chunks.length;
        controller.enqueue(encoder.encode(slice.chunks.map((json) => `data: ${json}\n\n`).join("")));
        slice = { chunks: [], state: slice.state };
      } catch (error) {
        stop();
        controller.error(error);
      }
    },
    cancel() {
      stopFollowing();
      stop();
    },
  });
  const headers = new Headers(UI_MESSAGE_STREAM_HEADERS);
  if (options.headers) new Headers(options.headers).forEach((value, key) => headers.set(key, value));
  return new Response(body, { status: 200, headers });
}

function noContent(extra: HeadersInit | undefined): Response {
  return new Response(null, { status: 204, ...(extra ? { headers: extra } : {}) });
}
