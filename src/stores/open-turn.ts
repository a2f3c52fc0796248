// How a turn is built from a backend's calls: shared by the built-in and the fallback backends.
import type { AgentMessage } from "../messages/agent-message";
import type { MessageTail, SessionLockOptions } from "./memory-store";
import type { AppendOptions } from "./usage-totals";
import { tailReadLimit, type StoreTurn, type TurnOptions, type TurnTail } from "./store-turn";

/** The primitives a turn is built on: the backend's calls, and the store's folded ones where it has them (`TurnFolding`). */
export interface TurnCalls {
  lockSession(sessionId: string, options: SessionLockOptions): Promise<(() => Promise<void>) | undefined>;
  getMessages(sessionId: string): Promise<AgentMessage[]>;
  getMessageTail(sessionId: string, limit: number): Promise<MessageTail>;
  /** The store's own objects where it can give them (`BuiltInStoreParts.storedTail`), else `getMessageTail`'s copies. */
  getStoredTail?(sessionId: string, limit: number | undefined): Promise<MessageTail & { stored?: true }>;
  appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void>;
  replaceMessagesFrom(
    sessionId: string,
    messageId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ): Promise<void>;
  /** Set when the store reads a tail natively. */
  readsTail: boolean;
  /** Records or checks the session's owner (`StoreBackend.claimSession`). */
  claimSession(sessionId: string, userId: string): Promise<void>;
  /** The store's folded turn statements (`TurnFolding`), wrapped by its backend, when it has them. */
  folded?: {
    lockSessionReadingTail(
      sessionId: string,
      options: SessionLockOptions,
      limit: number,
    ): Promise<{ release: () => Promise<void>; tail?: MessageTail }>;
    appendMessagesAndUnlock(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void>;
    appendMessagesDeferringSync?(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void>;
    syncAppends?(sessionId: string): Promise<void>;
  };
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
  const userId = options.userId;
  if (folded && limit !== undefined && userId === undefined) {
    const taken = await folded.lockSessionReadingTail(sessionId, lockOptions, limit);
    unlock = taken.release;
    if (taken.tail) read = { ...taken.tail, limit };
  } else {
    unlock = await calls.lockSession(sessionId, lockOptions);
  }
  if (userId !== undefined) {
    // The owner is checked (or recorded, for a new session) under the lock, before any history is read.
    try {
      await calls.claimSession(sessionId, userId);
    } catch (error) {
      await unlock?.().catch(() => {});
      throw error;
    }
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
    async append(messages, { last = false, usage } = {}) {
      const appendOptions: AppendOptions | undefined = usage ? { usage } : undefined;
      if (messages.length === 0) {
        if (last && unsynced) {
          await folded!.syncAppends!(sessionId);
          unsynced = false;
        }
        return;
      }
      if (!last && deferring) {
        await deferring.appendMessagesDeferringSync!(sessionId, messages, appendOptions);
        unsynced = deferring.syncAppends !== undefined;
        return;
      }
      // The store's append syncs everything it wrote before it.
      if (last && options.releaseWithLast && folded && unlock)
        await folded.appendMessagesAndUnlock(sessionId, messages, appendOptions);
      else await calls.appendMessages(sessionId, messages, appendOptions);
      unsynced = false;
    },
    async replaceFrom(messageId, messages, { usage } = {}) {
      await calls.replaceMessagesFrom(sessionId, messageId, messages, usage ? { usage } : undefined);
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
