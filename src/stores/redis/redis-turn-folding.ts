import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
import type { MessageTail, SessionLockOptions } from "../memory-store";
import { tailLimit } from "../tail-limit";
import type { TurnFolding } from "../built-in-store-parts";
import type { AppendOptions } from "../usage-totals";

/**
 * A Redis store's folded turn (see `TurnFolding`): a run takes the session lock and reads
 * its tail in one Lua script, and its last append releases the lock in the same script, so a turn
 * is 3 round trips (lock and tail, the user message, the rest of the turn and the release) instead
 * of 5. Each keeps what the separate calls guarantee. The lock is the same key, token and lease
 * as `lockSession`'s, and the tail is read in the script that took it: Redis runs a script alone,
 * so the tail holds every write made before the lock was taken, as a read after it would. The
 * releasing append is the append script's writes followed by the release script's check-and-delete
 * of this holder's token, atomically; the session index is written beside it, as every append
 * writes it (its 16 keys are not in the session's slot). Every key a script touches carries the
 * session's hash tag: one Cluster slot.
 */
export class RedisTurnFolding implements TurnFolding {
  constructor(
    private readonly store: {
      /** Takes the lock as `lockSession` does, with `attempt(token)` (the script that sets the lock key): undefined when it is held elsewhere. */
      takeLock<T>(
        sessionId: string,
        options: SessionLockOptions,
        attempt: (token: string) => Promise<T | undefined>,
      ): Promise<{ release: () => Promise<void>; value: T }>;
      /** Runs the lock-and-tail script with this token; undefined when the lock is held elsewhere. */
      lockAndReadTail(
        sessionId: string,
        token: string,
        count: number,
      ): Promise<{ total: number; raw: string[] } | undefined>;
      /** Parses a tail read (`getMessageTail`'s records and errors). */
      parseTail(sessionId: string, total: number, raw: string[]): MessageTail;
      /** The append, releasing the lock this instance holds on the session in the same script; resolves to whether it released it. */
      appendReleasing(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<boolean>;
    },
    private readonly storeName: string,
  ) {}

  async lockSessionReadingTail(
    sessionId: string,
    options: SessionLockOptions,
    limit: number,
  ): Promise<{ release: () => Promise<void>; tail?: MessageTail }> {
    validateSessionId(sessionId);
    const count = tailLimit(limit, this.storeName, "lockSession");
    const { release, value } = await this.store.takeLock(sessionId, options, (token) =>
      this.store.lockAndReadTail(sessionId, token, count),
    );
    try {
      return { release, tail: this.store.parseTail(sessionId, value.total, value.raw) };
    } catch (error) {
      await release().catch(() => {});
      throw error;
    }
  }

  async appendMessagesAndUnlock(
    sessionId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ): Promise<boolean> {
    validateSessionId(sessionId);
    if (messages.length === 0) return false; // the lock's release function releases it
    return this.store.appendReleasing(sessionId, messages, options);
  }
}
