import type { AgentMessage } from "../messages/agent-message";
import type { MessageTail, SessionLockOptions } from "./memory-store";

/** How a run opens its turn on a session (`AdaptedStore.openTurn`). */
export interface TurnOptions extends SessionLockOptions {
  /**
   * The run reads the session's history from the store, as `tail()`: its last `tailLimit` messages
   * (a strategy's `historyLimit`) where the store reads a tail natively, otherwise the whole
   * history. Undefined: the whole history, when `tail()` is called at all.
   */
  tailLimit?: number | undefined;
  /** Nothing after the turn's last append needs the session: the store may release its lock in that append's round trip. */
  releaseWithLast?: boolean;
}

/** A session's history as a turn read it. */
export interface TurnTail extends MessageTail {
  /** The number of messages asked for when this is a tail; undefined when it is the whole history. */
  limit?: number;
  /**
   * The messages are the store's own objects (`stores/stored-tail.ts`), asked for with
   * `tail({ stored: true })`: only for `parseSessionHistory`, which copies them.
   */
  stored?: true;
}

/**
 * A run's hold on its session in the store: the lock (where the store has one), the history it
 * starts from and the appends of its messages, each done the store's fastest way with the same
 * guarantees (docs/architecture.md, "The store capability layer"). Get one with
 * `adaptStore(store).openTurn(sessionId, options)`; always `release()` it.
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
   * may release its lock in the same round trip.
   */
  append(messages: AgentMessage[], options?: { last?: boolean }): Promise<void>;
  /**
   * The turn's last write when it replaces part of the history (regenerate, edit): deletes the
   * session's messages from `messageId` on and appends `messages`, in one write where the store
   * can, durable when it resolves. Fenced like an append.
   */
  replaceFrom(messageId: string, messages: AgentMessage[]): Promise<void>;
  /** Ends the turn: makes durable what a failed last append left undurable (best effort), then releases the lock. Safe to call twice. */
  release(): Promise<void>;
}

/** The primitives a turn is built on: the adapted store's calls, and its folded ones where the store has them. */
export interface TurnCalls {
  lockSession(sessionId: string, options: SessionLockOptions): Promise<(() => Promise<void>) | undefined>;
  getMessages(sessionId: string): Promise<AgentMessage[]>;
  getMessageTail(sessionId: string, limit: number): Promise<MessageTail>;
  /** The store's own objects where it can give them (`stores/stored-tail.ts`), else `getMessageTail`'s copies. */
  getStoredTail?(sessionId: string, limit: number | undefined): Promise<MessageTail & { stored?: true }>;
  appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
  replaceMessagesFrom(sessionId: string, messageId: string, messages: AgentMessage[]): Promise<void>;
  /** Set when the store reads a tail natively. */
  readsTail: boolean;
  /** The store's folded turn statements (`stores/turn-folding.ts`), wrapped by the adapter, when it has them. */
  folded?: {
    lockSessionReadingTail(
      sessionId: string,
      options: SessionLockOptions,
      limit: number,
    ): Promise<{ release: () => Promise<void>; tail?: MessageTail }>;
    appendMessagesAndUnlock(sessionId: string, messages: AgentMessage[]): Promise<void>;
    appendMessagesDeferringSync?(sessionId: string, messages: AgentMessage[]): Promise<void>;
    syncAppends?(sessionId: string): Promise<void>;
  };
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

/** Opens a turn: takes the session's lock (reading the tail with it where the store folds the two). */
export async function openStoreTurn(calls: TurnCalls, sessionId: string, options: TurnOptions): Promise<StoreTurn> {
  const lockOptions: SessionLockOptions = {
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const limit = tailReadLimit(calls.readsTail, options.tailLimit);
  const folded = calls.folded;
  let unlock: (() => Promise<void>) | undefined;
  let read: TurnTail | undefined;
  if (folded && limit !== undefined) {
    const taken = await folded.lockSessionReadingTail(sessionId, lockOptions, limit);
    unlock = taken.release;
    if (taken.tail) read = { ...taken.tail, limit };
  } else {
    unlock = await calls.lockSession(sessionId, lockOptions);
  }
  const deferring = folded?.appendMessagesDeferringSync ? folded : undefined;
  /** An append left its fsync to a later one, and none has made it durable yet. */
  let unsynced = false;
  let released = false;
  return {
    async tail({ limit: asked, stored = false }: { limit?: number; stored?: boolean } = {}) {
      if (asked === undefined && read) return read;
      const reading = asked === undefined ? limit : tailReadLimit(calls.readsTail, asked);
      if (reading !== undefined) {
        const got = await (stored && calls.getStoredTail ? calls.getStoredTail : calls.getMessageTail)(
          sessionId,
          reading,
        );
        return { ...got, limit: reading };
      }
      if (stored && calls.getStoredTail) return await calls.getStoredTail(sessionId, undefined);
      const messages = await calls.getMessages(sessionId);
      return { messages, total: Array.isArray(messages) ? messages.length : 0 };
    },
    async append(messages, { last = false } = {}) {
      if (messages.length === 0) {
        if (last && unsynced) {
          await folded!.syncAppends!(sessionId);
          unsynced = false;
        }
        return;
      }
      if (!last && deferring) {
        await deferring.appendMessagesDeferringSync!(sessionId, messages);
        unsynced = deferring.syncAppends !== undefined;
        return;
      }
      // The store's append syncs everything it wrote before it.
      if (last && options.releaseWithLast && folded && unlock)
        await folded.appendMessagesAndUnlock(sessionId, messages);
      else await calls.appendMessages(sessionId, messages);
      unsynced = false;
    },
    async replaceFrom(messageId, messages) {
      await calls.replaceMessagesFrom(sessionId, messageId, messages);
      // A replace syncs what the store wrote before it, as an append does.
      if (unsynced) await folded!.syncAppends!(sessionId);
      unsynced = false;
    },
    async release() {
      if (released) return;
      released = true;
      if (unsynced) await folded!.syncAppends!(sessionId).catch(() => {});
      await unlock?.();
    },
  };
}
