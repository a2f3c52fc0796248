import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { validateSessionId } from "../messages/session-id";
import { backendOf } from "../stores/backend-of";
import type { MemoryStore } from "../stores/memory-store";
import { storeCall } from "../stores/store-call";

/** Options of {@link stopRun}. */
export interface StopRunOptions {
  /** The session whose running turn to stop (from the server's own knowledge of who asks, never the request body alone). */
  sessionId: string;
  /**
   * The store the run uses (the same database: another store object, in another process, on the same
   * Redis, Upstash or PostgreSQL server reaches it; an in-memory, file or SQLite store reaches runs of
   * this process).
   */
  memoryStore: MemoryStore;
}

/**
 * Stops the session's running turn, wherever it runs (docs/streaming.md, "Stop"): its model request
 * is aborted, no further tool call starts, the text streamed so far is stored as the turn's last
 * assistant message (`finishReason: "stopped"`), the run ends with finishReason "stopped" and the
 * session is released. Resolves once the stop is sent (not once the run has stopped). A session with
 * no running turn: nothing happens, and nothing is kept to stop a later run.
 */
export async function stopRun(options: StopRunOptions): Promise<void> {
  if (options == null || typeof options !== "object" || options.memoryStore == null) {
    throw new InvalidArgumentError({
      argument: "memoryStore",
      message: "stopRun() needs { sessionId, memoryStore }: the session to stop and the store its run uses.",
    });
  }
  const sessionId = validateSessionId(options.sessionId);
  const backend = backendOf(options.memoryStore);
  await storeCall(backend.name)("requestStop", sessionId, `Could not send a stop to session "${sessionId}"`, () =>
    backend.stopSignals.requestStop(sessionId),
  );
}
