import type { AgentMessage } from "../messages/agent-message";
import type { ContextReport, ContextReportReadOptions } from "./context-report";
import type { SessionMetadata } from "./session-metadata";
import type { AppendOptions, UsageQuery, UsageTotals, UserDataDeletion } from "./usage-totals";

/**
 * A key/value note the agent keeps about a session or a user. A store written with the AgentCore
 * document's fact methods (`Record<string, string>`) keeps only keys and values: its facts come
 * back with `createdAt` and `updatedAt` 0 (unknown) and no `messageId`.
 */
export interface Fact {
  /** Normalised key (trimmed, lower-case). */
  key: string;
  value: string;
  /** When the key was first set (ms since epoch); 0 when the store does not keep it. */
  createdAt: number;
  /** When the value last changed (ms since epoch); 0 when the store does not keep it. */
  updatedAt: number;
  /** Id of the message during whose turn the fact was set, when known. */
  messageId?: string;
}

/** Facts as the AgentCore document's stores keep them: key → value. */
export type FactRecord = Record<string, string>;

/** A summary of a stretch of a session's history, kept beside (never instead of) the messages. */
export interface SummaryRecord {
  id: string;
  /** The summary text. */
  content: string;
  /** Id of the first message the summary covers. */
  fromMessageId: string;
  /** Id of the last message the summary covers. */
  toMessageId: string;
  /** How many messages it covers, from the start of the session. */
  messageCount: number;
  /** The model that wrote it, as `provider/model`. */
  model: string;
  createdAt: number;
  /** Tokens of `content`, when counted. */
  tokenCount?: number;
}

/** Options of `getSummaries`. */
export interface SummaryReadOptions {
  /** Only the newest `last` summaries (still oldest first). Omitted: all of them. */
  last?: number;
}

/** What `getMessageTail` returns. */
export interface MessageTail {
  /** The last messages, oldest first (at most `limit`). */
  messages: AgentMessage[];
  /** How many messages the session holds in all (0 when it does not exist). */
  total: number;
}

/** Options of `lockSession`. */
export interface SessionLockOptions {
  /** Milliseconds to wait for a lock held elsewhere (0: try once). */
  timeoutMs: number;
  /** Stops the wait: `lockSession` rejects with an `AbortError` and takes no lock. */
  signal?: AbortSignal;
}

/** What a store knows about one session. */
export interface SessionEntry {
  sessionId: string;
  createdAt: number;
  /**
   * Last write (a turn appended, history replaced, metadata or a summary saved). The agent writes
   * on every turn, so a session in use stays fresh; `prune` compares against this.
   */
  accessedAt: number;
  messageCount: number;
  agentName?: string;
  tags?: string[];
  /** Estimated tokens of the stored history, when known. */
  tokenCount?: number;
  /**
   * The user who owns the session: the `userId` of the run that created it. Absent for a session
   * created without one (ownerless: any run may use it). Never changes once recorded.
   */
  userId?: string;
  /** The session's title: set by `updateSession(id, { title })`, or generated after its first turn (`generateTitle`). */
  title?: string;
  /** The app's own fields (`updateSession(id, { metadata })`), JSON. */
  metadata?: SessionMetadata;
  /** What the session's model calls spent (the usage ledger); absent where the store keeps no ledger. */
  usage?: UsageTotals;
  /** The text of the session's last message that has text, at most 200 characters (`previewOf`). */
  preview?: string;
}

/** What `updateSession` records on a session. */
export interface SessionUpdate {
  agentName?: string;
  tags?: string[];
  /**
   * The session's owner, given once, when a run with a `userId` creates the session (a custom store
   * keeps it and returns it from `getSession`; built-in stores record the owner their own way and ignore it).
   */
  userId?: string;
  /** Sets the title (1 to 200 characters, trimmed): a title set here is never replaced by a generated one. */
  title?: string;
  /** Replaces the app's own fields (a plain JSON object of at most 16 KiB). */
  metadata?: SessionMetadata;
}

/** Options of `listSessions`. */
export interface ListSessionsOptions {
  /** Whose sessions (the owner recorded at creation). */
  userId: string;
  /** Sessions per page, 1 to 1,000. @default 20 */
  limit?: number;
  /** The `nextCursor` of the previous page; omitted: the first page. Opaque. */
  cursor?: string;
}

/** A page of `listSessions`. */
export interface SessionPage {
  /** Newest activity first (`accessedAt` descending, then `sessionId` descending). */
  sessions: SessionEntry[];
  /** Pass it as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/**
 * Where conversations and facts live. A custom store implements the six required methods; the
 * optional ones (built-in stores have them) let the agent do less work per turn, and the agent
 * uses each one only when it is present.
 *
 * The fact methods come in two shapes, and a store may use either (docs/stores.md):
 *
 * - **The AgentCore document's** (key → value): `getFacts(sessionId): Promise<Record<string, string>>`,
 *   `setFact(sessionId, key, value)`, `deleteFact(sessionId, key)`. A session's facts arrive under
 *   the session id itself (so `clearMessages(sessionId)` may clear them too, as the document's
 *   example does); facts kept per user (`factScope: "user"`) arrive as `user:<userId>`; a session
 *   whose own id starts with `user:` or `session:` arrives as `session:<sessionId>`, so no session
 *   can ever read a user's facts.
 * - **The rich shape** (built-in stores): `getFacts(scopeId): Promise<Fact[]>`,
 *   `setFact(scopeId, fact)`, with timestamps and the message a fact came from. Its `scopeId` is
 *   `session:<sessionId>` or `user:<userId>`.
 *
 * agentcore tells them apart by what `getFacts` returns (an array or a plain object; a first
 * write reads once first), `setFact`'s declared parameters (three: key and value) being only the
 * first guess. Only the fallback backend (`fallbackBackend`, through `backendOf`) calls them, so the rest of agentcore always
 * sees `Fact[]`.
 */
export interface MemoryStore {
  /** The whole history of a session, oldest first. An unknown session has `[]`. */
  getMessages(sessionId: string): Promise<AgentMessage[]>;
  /** Replaces the history of a session (stored exactly as given, in order). */
  setMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
  /** Deletes the history of a session (and its summaries and metadata; the rich shape's facts stay). */
  clearMessages(sessionId: string): Promise<void>;
  /** The facts of a scope: `Fact[]` (rich shape) or a key → value record (the AgentCore document's shape). */
  getFacts(scopeId: string): Promise<Fact[] | FactRecord>;
  /**
   * Creates or replaces a fact: `setFact(scopeId, fact)` (rich shape) or
   * `setFact(sessionId, key, value)` (the AgentCore document's shape).
   */
  setFact(scopeId: string, factOrKey: Fact | string, value?: string): Promise<void>;
  /** Deletes a fact. Resolves to whether it existed (or to nothing). */
  deleteFact(scopeId: string, key: string): Promise<boolean | void>;

  /**
   * Appends one turn atomically. Idempotent by message id: a message whose id is already
   * stored in the session is skipped, so a retried append never duplicates.
   */
  appendMessages?(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void>;
  /**
   * Messages `start` (included) to `end` (excluded) of a session, oldest first, by position from
   * the session's start (as `getMessageTail`'s `total` counts them), read in O(end - start): a page
   * of a long session without reading the rest. Positions past the end give fewer messages (or none).
   * `start` and `end` are integers, 0 ≤ start ≤ end; anything else is an `InvalidArgumentError`.
   */
  getMessageRange?(sessionId: string, start: number, end: number): Promise<AgentMessage[]>;
  /**
   * A session's or a user's running totals (the usage ledger): `{ sessionId }` reads the session's,
   * `{ userId, since? }` the user's across every session they own, from a per-user running total
   * (never a scan of their sessions). Totals of nothing spent (zeros) for an unknown session or user.
   */
  getUsage?(query: UsageQuery): Promise<UsageTotals>;
  /**
   * Deletes every session `userId` owns with its messages, summaries and context reports, and the
   * facts of the user and of those sessions; nothing of any other user. Safe to call again after a
   * crash half-way (it finishes the job; counts are of what this call deleted).
   */
  deleteUserData?(userId: string): Promise<UserDataDeletion>;
  /**
   * Deletes a session's messages from the one with id `messageId` on, that message included (what
   * regenerate and edit do). Summaries covering a deleted message go with it (`SummaryRecord`:
   * their `messageCount` reaches past the cut, or their first or last message is deleted), and a
   * deleted id may be appended again. Rejects with a `MessageNotFoundError` when the session holds
   * no message with that id, and, like `appendMessages`, with a `SessionLockLostError` when this
   * store held the session's lock and lost it: nothing is deleted then.
   */
  deleteMessagesFrom?(sessionId: string, messageId: string): Promise<void>;
  /**
   * The last `limit` messages of a session, oldest first, and how many messages the session
   * holds, read as one consistent snapshot in O(limit) (never by loading or counting the whole
   * history). `limit` is a number of messages, 0 or more (fractions round down, `Infinity` is
   * everything); anything else is an `InvalidArgumentError`. `total - messages.length` is the position in the session of the first message
   * returned. The agent uses it to read only the tail a window needs while knowing where that
   * tail sits, which keeps stable prompt prefixes stable.
   */
  getMessageTail?(sessionId: string, limit: number): Promise<MessageTail>;
  /** Metadata of one session, or undefined when it does not exist. */
  getSession?(sessionId: string): Promise<SessionEntry | undefined>;
  /**
   * Records metadata (agent name, tags, title, the app's fields) on a session. A custom store that
   * keeps `userId` (given once, when a run with a `userId` creates the session) and returns it from
   * `getSession` gets ownership (docs/stores.md); built-in stores record the owner their own way and
   * ignore it here. Like `appendMessages`, rejects with a `SessionLockLostError` when this store held
   * the session's lock and lost it: nothing is recorded then.
   */
  updateSession?(sessionId: string, metadata: SessionUpdate): Promise<void>;
  /** Every session the store holds, with its metadata. */
  entries?(): Promise<SessionEntry[]>;
  /**
   * A user's sessions (those whose owner, `SessionEntry.userId`, is `userId`), newest activity first
   * (`accessedAt` descending, `sessionId` descending among equals), one page at a time, read from a
   * per-user index (never a scan of every session). The cursor is a position, not an offset: a walk
   * through the pages while sessions are written returns no session twice and skips none, except
   * that a session written during the walk moves to the front (it is not returned again if it was
   * already, and may be missed if it was not: read the first page again to see it). A bad `limit`
   * or `cursor` is an `InvalidArgumentError`.
   */
  listSessions?(options: ListSessionsOptions): Promise<SessionPage>;
  /** Deletes sessions not accessed since `olderThan` (ms since epoch). Resolves to the ids deleted. */
  prune?(options: { olderThan: number }): Promise<string[]>;
  /**
   * The summaries kept for a session, oldest first; with `{ last: n }`, only the newest `n` (still
   * oldest first), so a long session's summary strategy reads a few records, not every summary the
   * session ever had. A store that ignores `last` still works: the agent keeps the newest `n`.
   */
  getSummaries?(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]>;
  /**
   * Keeps a summary for a session. Idempotent by `record.id`. Like `appendMessages`, rejects with a
   * `SessionLockLostError` when this store held the session's lock and lost it: nothing is kept then.
   */
  saveSummary?(sessionId: string, record: SummaryRecord): Promise<void>;
  /**
   * Takes a lock on the session that holds across processes (and machines, for server stores),
   * waiting up to `timeoutMs` (0: try once). Resolves to the function that releases it, or
   * rejects with a `SessionBusyError` when the lock stays taken, or with an `AbortError` as soon
   * as `signal` (the run's) aborts while it waits. The agent holds it for a whole run so two runs
   * on one session, anywhere, never interleave their turns.
   */
  lockSession?(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>>;
  /**
   * The scope ids that hold facts (`session:<id>`, `user:<id>`), sorted; a scope whose facts were
   * all deleted may still be listed. Lets `agentcore memory export` carry facts kept per user.
   */
  factScopes?(): Promise<string[]>;
  /**
   * Keeps the context report of one model call (the agent's `recordContext: true`), idempotent by
   * `report.id`. At most `MAX_CONTEXT_REPORTS` (100) per session: the oldest go first. Cleared and
   * pruned with the session. Fallback: kept in this process.
   */
  saveContextReport?(sessionId: string, report: ContextReport): Promise<void>;
  /** A session's context reports, oldest first; with `{ last: n }` only the newest `n`. */
  getContextReports?(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]>;
}
