// What a built-in store gives `builtInBackend` beside its public methods: the fast paths no
// `MemoryStore` method expresses (internal, not exported by the package).
import type { AgentMessage } from "../messages/agent-message";
import type { Fact, MessageTail, SessionLockOptions } from "./memory-store";
import type { AppendOptions, UsageTotals } from "./usage-totals";
import type { StopSignals } from "./stop-signals";
import type { StreamLog } from "./stream-log";

/**
 * What a store can fold into fewer round trips of a run (the lock, the tail read and the last
 * append), with the same guarantees as the separate calls.
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
  appendMessagesAndUnlock(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<boolean>;
  /**
   * `appendMessages` for a run holding the session's lock, whose fsync may wait: the messages are
   * stored (every reader sees them, a crash of the process keeps them) but a power loss before the
   * next sync may lose them. The run must make them durable before it settles, by a later
   * `appendMessages`/`appendMessagesAndUnlock` or by `syncAppends`. For a store whose every write
   * costs a sync (the file store): a turn's user message and answer then share one.
   */
  appendMessagesDeferringSync?(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void>;
  /** Makes durable every append of this store whose sync was deferred (`appendMessagesDeferringSync`). */
  syncAppends?(sessionId: string): Promise<void>;
}

/**
 * A store's fact writes that name the writer's session (a run's `remember_fact` / `forget_fact`):
 * a write naming a session whose lock this store instance holds, or held until it was taken over,
 * is fenced by that lock whatever the fact's scope: refused with `SessionLockLostError`, nothing
 * written, once the lock was lost. Without a writer, or a session this instance never locked: not
 * fenced, as the public methods are not.
 */
export interface FencedFacts {
  setFact(scopeId: string, fact: Fact, writerSessionId?: string): Promise<void>;
  /** Resolves to whether the fact existed. */
  deleteFact(scopeId: string, key: string, writerSessionId?: string): Promise<boolean>;
}

/** A built-in store's fast paths (each optional: without it, the backend uses the public methods). */
export interface BuiltInStoreParts {
  /**
   * The built-in class's prototype. A method of the store that is not this prototype's (a user's
   * subclass that overrides or adds a `MemoryStore` method) is served as a user's store's would be,
   * by the fallback backend, so the override is called.
   */
  readonly prototype: object;
  /** The store has a cross-process session lock (`lockSession`). @default true */
  readonly locks?: boolean;
  /** The lock, the tail and the last append folded (Redis, Upstash, PostgreSQL; the file store folds fsyncs). */
  readonly folding?: TurnFolding;
  /** `deleteMessagesFrom` and `appendMessages` in one write (one script, transaction or journal line), fenced like appends. */
  readonly replaceFrom?: (
    sessionId: string,
    messageId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ) => Promise<void>;
  /**
   * `StoreBackend.titleSession`: the title written only on a session that exists and has none, and
   * `usage` added to the session's and its owner's totals in the same write.
   */
  readonly titleSession?: (sessionId: string, title: string, usage: UsageTotals | undefined) => Promise<boolean>;
  /**
   * Records `userId` as the owner of a session that does not exist yet, atomically with its creation,
   * and resolves to the session's owner (undefined: an existing ownerless session).
   */
  readonly claimSession?: (sessionId: string, userId: string) => Promise<string | undefined>;
  /** How a stop reaches the run holding a session (its server's means). @default in this process, per store object */
  readonly stopSignals?: StopSignals;
  /** The fact writes of a run, fenced by its session's lock. */
  readonly facts?: FencedFacts;
  /**
   * The run's own read (the in-memory store): its last `limit` messages, or its whole history
   * without a limit, as the store's own objects in a new array, without the copy its
   * `getMessageTail` / `getMessages` makes. Only `parseSessionHistory` reads them, and it rebuilds
   * or copies every message before anything else sees it.
   */
  readonly storedTail?: (sessionId: string, limit: number | undefined) => MessageTail;
  /**
   * The store's stream log (Redis, Upstash, PostgreSQL); a name: kept in this process, shared by the
   * store objects that give the same name (a file store's path). @default kept in this process, per store object
   */
  readonly streamLog?: StreamLog | string;
}
