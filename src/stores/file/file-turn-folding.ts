import type { AgentMessage } from "../../messages/agent-message";
import type { MessageTail, SessionLockOptions } from "../memory-store";
import type { TurnFolding } from "../built-in-store-parts";
import type { AppendOptions } from "../usage-totals";

/**
 * A `FileMemoryStore`'s folded turn (see `TurnFolding`). The file store has no round trips to
 * save; what it folds is fsyncs. A run writes its user message before calling the model without
 * waiting for the disk (`appendMessagesDeferringSync`: the line is in the journal, visible to
 * every process and kept if this one crashes), and its last append fsyncs the journal, which
 * makes both lines durable at once: one fdatasync per turn instead of two.
 *
 * The rule: every append of a run is durable when the run settles (returns, throws or is
 * aborted). The agent syncs on every path (`syncAppends` when nothing else was appended after
 * the user message), the session lock's release syncs too, and a line left unsynced for a second
 * (a slow model) is synced by a timer the journal starts when it writes it. A direct `appendMessages` call is never
 * deferred: it resolves after its fsync.
 */
export class FileTurnFolding implements TurnFolding {
  constructor(
    private readonly store: {
      lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>>;
      readTail(sessionId: string, limit: number): Promise<MessageTail>;
      /** The store's append (`options.usage` in the same line); `sync: false` leaves the fsync to later. */
      append(sessionId: string, messages: AgentMessage[], sync: boolean, options?: AppendOptions): Promise<void>;
      sync(sessionId: string): Promise<void>;
    },
  ) {}

  /** The lock, then the tail read with it held (a local store has no round trip to fold them into). */
  async lockSessionReadingTail(
    sessionId: string,
    options: SessionLockOptions,
    limit: number,
  ): Promise<{ release: () => Promise<void>; tail?: MessageTail }> {
    const release = await this.store.lockSession(sessionId, options);
    try {
      return { release, tail: await this.store.readTail(sessionId, limit) };
    } catch (error) {
      await release().catch(() => {});
      throw error;
    }
  }

  /** The run's last append, fsynced (with every line written before it); the lock's release function then releases it. */
  async appendMessagesAndUnlock(
    sessionId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ): Promise<boolean> {
    await this.store.append(sessionId, messages, true, options);
    return false;
  }

  appendMessagesDeferringSync(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void> {
    return this.store.append(sessionId, messages, false, options);
  }

  syncAppends(sessionId: string): Promise<void> {
    return this.store.sync(sessionId);
  }
}
