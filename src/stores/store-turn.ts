import type { AgentMessage } from "../messages/agent-message";
import type { MessageTail, SessionLockOptions } from "./memory-store";
import type { UsageTotals } from "./usage-totals";

/** How a run opens its turn on a session (`StoreBackend.openTurn`). */
export interface TurnOptions extends SessionLockOptions {
  /**
   * The run reads the session's history from the store, as `tail()`: its last `tailLimit` messages
   * (a strategy's `historyLimit`) where the store reads a tail natively, otherwise the whole
   * history. Undefined: the whole history, when `tail()` is called at all.
   */
  tailLimit?: number | undefined;
  /** Nothing after the turn's last append needs the session: the store may release its lock in that append's round trip. */
  releaseWithLast?: boolean;
  /**
   * The user the run is for: a new session is created owned by them, and a session another user
   * owns is refused (`SessionOwnershipError`) once the lock is taken, before the history is read.
   * Undefined: no ownership check (and no extra store call).
   */
  userId?: string | undefined;
}

/** A session's history as a turn read it. */
export interface TurnTail extends MessageTail {
  /** The number of messages asked for when this is a tail; undefined when it is the whole history. */
  limit?: number;
  /**
   * The messages are the store's own objects (`BuiltInStoreParts.storedTail`), asked for with
   * `tail({ stored: true })`: only for `parseSessionHistory`, which copies them.
   */
  stored?: true;
}

/**
 * A run's hold on its session in the store: the lock (where the store has one), the history it
 * starts from and the appends of its messages, each done the store's fastest way with the same
 * guarantees (docs/architecture.md, "The store backend"). Get one with
 * `backendOf(store).openTurn(sessionId, options)`; always `release()` it.
 */
export interface StoreTurn {
  /**
   * The session's history for the run: read with the lock in one round trip where the store can
   * (then already read), otherwise read now. Its last `tailLimit` messages where the store reads a
   * tail natively, else the whole history. With `limit`: a longer read, now, under the lock the
   * turn holds (no second lock round trip): the last `limit` messages where the store reads a tail
   * natively, else (or with `Infinity`) the whole history.
   */
  tail(options?: { limit?: number; stored?: boolean }): Promise<TurnTail>;
  /**
   * Appends messages of the turn, idempotently by message id. Before the last, the store may leave
   * the append's fsync to the last (every reader sees the messages, a process crash keeps them).
   * `last`: the turn's last append; when it resolves every append of the turn is durable (with no
   * messages left, it only makes the earlier ones durable), and with `releaseWithLast` the store
   * may release its lock in the same round trip. `usage`: what the turn spent since its previous
   * append, recorded in the ledger in the same write (only when a new message is stored).
   */
  append(messages: AgentMessage[], options?: { last?: boolean; usage?: UsageTotals | undefined }): Promise<void>;
  /**
   * The turn's last write when it replaces part of the history (regenerate, edit): deletes the
   * session's messages from `messageId` on and appends `messages`, in one write where the store
   * can, durable when it resolves. Fenced like an append.
   */
  replaceFrom(
    messageId: string,
    messages: AgentMessage[],
    options?: { usage?: UsageTotals | undefined },
  ): Promise<void>;
  /** Ends the turn: makes durable what a failed last append left undurable (best effort), then releases the lock. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * The number of messages a run reads as a tail for a strategy's `historyLimit`, or undefined when
 * it reads the whole history (no limit, or a store without a native tail read: one full read then
 * serves every window, slicing it would only force re-reads).
 */
export function tailReadLimit(readsTail: boolean, historyLimit: number | undefined): number | undefined {
  const limit =
    historyLimit !== undefined && Number.isFinite(historyLimit) && historyLimit > 0
      ? Math.ceil(historyLimit)
      : undefined;
  return limit !== undefined && readsTail ? limit : undefined;
}
