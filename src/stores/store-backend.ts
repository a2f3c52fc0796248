// The internal contract between agentcore and its stores (docs/architecture.md, "The store
// backend"). Callers get one with `backendOf(store)` (`backend-of.ts`).
import type { AgentMessage } from "../messages/agent-message";
import type { ContextReport, ContextReportReadOptions } from "./context-report";
import type {
  Fact,
  MemoryStore,
  MessageTail,
  ListSessionsOptions,
  SessionEntry,
  SessionLockOptions,
  SessionPage,
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "./memory-store";
import type { AppendOptions, UsageQuery, UsageTotals, UserDataDeletion } from "./usage-totals";
import type { StopSignals } from "./stop-signals";
import type { StoreTurn, TurnOptions } from "./store-turn";
import type { StreamLog } from "./stream-log";

/** Which optional capabilities a store has natively (the rest fall back, or are absent). */
export interface StoreCapabilities {
  /** Atomic, idempotent append. Fallback: read-modify-write skipping stored ids. */
  appendMessages: boolean;
  /** Deletes from a message on. Fallback: read-modify-write (`getMessages`, then `setMessages`). */
  deleteMessagesFrom: boolean;
  /** O(limit) tail read. Fallback: a full read, sliced. */
  getMessageTail: boolean;
  /** Summaries kept by the store. Fallback: kept in this process, per store and session. */
  summaries: boolean;
  /** A cross-process session lock. Fallback: none (the in-process queue only). */
  lockSession: boolean;
  getSession: boolean;
  updateSession: boolean;
  entries: boolean;
  prune: boolean;
  /** Lists the scopes that hold facts (for export). Fallback: none. */
  factScopes: boolean;
  /** Context reports kept by the store. Fallback: kept in this process, per store and session. */
  contextReports: boolean;
  /** Lists a user's sessions from an index (`listSessions`). Fallback: none (an `UnsupportedRuntimeError`). */
  listSessions: boolean;
  /** Reads a range of a session's messages in O(range) (`getMessageRange`). Fallback: a full read, sliced. */
  getMessageRange: boolean;
  /** Keeps the usage ledger (`getUsage`, usage recorded with appends and titles). Fallback: none (usage is not recorded; `getUsage` is an `UnsupportedRuntimeError`). */
  usage: boolean;
  /** Deletes a user's data (`deleteUserData`). Fallback: none (an `UnsupportedRuntimeError`). */
  deleteUserData: boolean;
}

/**
 * A store as the rest of agentcore uses it: every capability answered (natively or by a fallback),
 * every failure a `StoreError` naming the store (typed agentcore errors such as `SessionBusyError`,
 * `SessionLockLostError` or `CorruptStoreError` pass through unchanged). A built-in store
 * implements it its fastest way (`builtInBackend`); a user's store is served by `fallbackBackend`.
 * Get one with `backendOf`. New per-session state (a session's owner and usage, resumable stream
 * chunks, working memory) is added here once, with its fallback.
 */
export interface StoreBackend {
  /** The store served. */
  readonly store: MemoryStore;
  /** The store's name in errors (its class name, or "custom store"). */
  readonly name: string;
  readonly capabilities: Readonly<StoreCapabilities>;

  // The turn: a run's hold on its session (lock, history, fenced appends, release).
  /**
   * Opens a run's turn on a session: takes the lock (where the store has one) and gives the run its
   * history and its appends, each the store's fastest way (`StoreTurn`).
   */
  openTurn(sessionId: string, options: TurnOptions): Promise<StoreTurn>;
  /** Takes the store's cross-process session lock; resolves to its release, or undefined when the store has none. */
  lockSession(sessionId: string, options: SessionLockOptions): Promise<(() => Promise<void>) | undefined>;
  /**
   * Runs `task` once no other task of this backend runs on the session in this process: for a
   * read-modify-write outside a run (the conversation memories' writes). Not the agent's run queue.
   */
  exclusive<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
  /**
   * Stop: a stop asked for a session (`stopRun`, `agent.stop`) carried to the run holding it, in
   * any process where the store's server can carry it (Redis pub/sub, Upstash a polled key,
   * PostgreSQL LISTEN/NOTIFY); in this process only for the others (in-memory, file, SQLite, a
   * user's store).
   */
  readonly stopSignals: StopSignals;

  // Messages.
  getMessages(sessionId: string): Promise<AgentMessage[]>;
  setMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
  /** Deletes a session's history (its summaries, metadata and context reports with it). */
  clearMessages(sessionId: string): Promise<void>;
  /**
   * Appends messages atomically and idempotently by message id, so a retry never duplicates; the
   * options' `usage` goes into the ledger in the same write when a new message was stored.
   */
  appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void>;
  /** The last `limit` messages and the session's size. */
  getMessageTail(sessionId: string, limit: number): Promise<MessageTail>;
  /** Messages `start` (included) to `end` (excluded), by position from the session's start. */
  getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]>;

  // The cut (regenerate, edit; where the cut is: `history-cut.ts`).
  /** Deletes the session's messages from `messageId` on (included); a `MessageNotFoundError` when it has no such message. */
  deleteMessagesFrom(sessionId: string, messageId: string): Promise<void>;
  /** `deleteMessagesFrom`, then `messages` appended: in one write where the store can, otherwise the two in a row. */
  replaceMessagesFrom(
    sessionId: string,
    messageId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ): Promise<void>;

  // Facts.
  /**
   * The facts of a scope (`session:<id>` or `user:<id>`, see `factScopeId`), as `Fact[]` whichever
   * fact shape the store has. `sessionId` (the run's, when known) fills a `StoreError`'s field.
   */
  getFacts(scopeId: string, sessionId?: string): Promise<Fact[]>;
  /** Stores a fact; with `sessionId` (a run's), it is fenced by that session's lock where the store has one. */
  setFact(scopeId: string, fact: Fact, sessionId?: string): Promise<void>;
  deleteFact(scopeId: string, key: string, sessionId?: string): Promise<void>;
  /** The scope ids that hold facts. Check `capabilities.factScopes` first: a `StoreError` when the store cannot list them. */
  factScopes(): Promise<string[]>;

  // Summaries.
  /** A session's summaries, oldest first; with `{ last: n }` the newest `n` only. */
  getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]>;
  /** Keeps a summary (idempotent by `record.id`). */
  saveSummary(sessionId: string, record: SummaryRecord): Promise<void>;

  // Context reports.
  /** Keeps a model call's context report (idempotent by id, bounded per session). */
  saveContextReport(sessionId: string, report: ContextReport): Promise<void>;
  /** A session's context reports, oldest first (the newest `last` with `{ last }`). */
  getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]>;

  // Sessions.
  /** Metadata of a session; undefined when unknown or when the store keeps none. */
  getSession(sessionId: string): Promise<SessionEntry | undefined>;
  /** Records metadata on a session (fenced by a run's lock like its appends); does nothing when the store keeps none. */
  updateSession(sessionId: string, metadata: Omit<SessionUpdate, "userId">): Promise<void>;
  /**
   * Sets a generated title on a session that exists and has none (a title set by `updateSession`
   * is never replaced), adding `usage` (the title's model call) to the ledger in the same write.
   * Resolves to whether the title was written. A store without metadata writes nothing.
   */
  titleSession(sessionId: string, title: string, usage?: UsageTotals): Promise<boolean>;
  /** A session's or a user's running totals. Check `capabilities.usage`: an `UnsupportedRuntimeError` when the store keeps no ledger. */
  getUsage(query: UsageQuery): Promise<UsageTotals>;
  /** Deletes a user's sessions and facts (`MemoryStore.deleteUserData`). Check `capabilities.deleteUserData`: an `UnsupportedRuntimeError` when the store cannot. */
  deleteUserData(userId: string): Promise<UserDataDeletion>;
  /** Every session with its metadata. Check `capabilities.entries` first: a `StoreError` when the store cannot list. */
  entries(): Promise<SessionEntry[]>;
  /**
   * Makes `userId` the owner of the session if it does not exist yet (atomically: of two users
   * creating one session, exactly one owns it), and refuses with a `SessionOwnershipError` a session
   * another user owns. An existing ownerless session stays ownerless. A run does it when its turn
   * opens (`TurnOptions.userId`), under the lock, before its history is read.
   */
  claimSession(sessionId: string, userId: string): Promise<void>;
  /** A user's sessions, newest activity first, a page at a time. Check `capabilities.listSessions`: an `UnsupportedRuntimeError` when the store cannot. */
  listSessions(options: ListSessionsOptions): Promise<SessionPage>;
  /** Deletes sessions not accessed since `olderThan`. Check `capabilities.prune` first: a `StoreError` when the store cannot prune. */
  prune(options: { olderThan: number }): Promise<string[]>;

  // Resumable streams.
  /**
   * The log of the sessions' UI stream chunks (`resumable: true`, `resumeStream`): the store's own
   * where it has one (Redis, Upstash, PostgreSQL: shared by every process), else kept in this process.
   */
  readonly streamLog: StreamLog;
}

/**
 * The one key under which a built-in store gives its backend (internal: not exported by the package,
 * not part of the `MemoryStore` contract). A `Symbol.for`, so the CommonJS and ESM builds share it.
 */
export const storeBackend: unique symbol = Symbol.for("agentcore.storeBackend");

/** A built-in store: it makes its own backend (`builtInBackend`). */
export interface BuiltInStore {
  [storeBackend](): StoreBackend;
}
