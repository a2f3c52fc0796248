import type { AgentMessage } from "../messages/agent-message";
import type { MessageTail, SessionLockOptions } from "./memory-store";

/**
 * Where a built-in store keeps its {@link TurnFolding} (internal: not exported by the package, so
 * not part of the `MemoryStore` contract; a store without it is served by its plain methods).
 */
export const turnFolding: unique symbol = Symbol.for("agentcore.turnFolding");

/**
 * What a store can fold into fewer round trips of a run (the agent's lock, tail read and last
 * append), with the same guarantees as the separate calls. The store adapter uses it when present.
 */
export interface TurnFolding {
  /**
   * `lockSession`, reading the session's last `limit` messages in the same round trip. `tail` is
   * set only when the store could prove it read them after the previous holder's writes (else read
   * them with `getMessageTail`).
   */
  lockSessionReadingTail(
    sessionId: string,
    options: SessionLockOptions,
    limit: number,
  ): Promise<{ release: () => Promise<void>; tail?: MessageTail }>;
  /**
   * `appendMessages`, then the release of the session lock this store instance holds on the
   * session, in one round trip and one transaction (the lock's release function then does
   * nothing). Resolves to whether the lock was released; without a lock held, only appends.
   */
  appendMessagesAndUnlock(sessionId: string, messages: AgentMessage[]): Promise<boolean>;
  /**
   * `appendMessages` for a run holding the session's lock, whose fsync may wait: the messages are
   * stored (every reader sees them, a crash of the process keeps them) but a power loss before the
   * next sync may lose them. The run must make them durable before it settles, by a later
   * `appendMessages`/`appendMessagesAndUnlock` or by `syncAppends`. For a store whose every write
   * costs a sync (the file store): a turn's user message and answer then share one.
   */
  appendMessagesDeferringSync?(sessionId: string, messages: AgentMessage[]): Promise<void>;
  /** Makes durable every append of this store whose sync was deferred (`appendMessagesDeferringSync`). */
  syncAppends?(sessionId: string): Promise<void>;
}

/** The store's folding, when it has one. */
export function turnFoldingOf(store: object): TurnFolding | undefined {
  const folding = (store as { [turnFolding]?: TurnFolding })[turnFolding];
  return folding != null &&
    typeof folding.lockSessionReadingTail === "function" &&
    typeof folding.appendMessagesAndUnlock === "function"
    ? folding
    : undefined;
}
