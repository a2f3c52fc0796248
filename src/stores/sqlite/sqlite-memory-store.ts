import { errorText } from "../../errors/error-text";
import type { Database } from "better-sqlite3";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import type {
  Fact,
  ListSessionsOptions,
  MemoryStore,
  MessageTail,
  SessionEntry,
  SessionLockOptions,
  SessionPage,
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { checkSessionUpdate } from "../session-metadata";
import { previewOf } from "../session-preview";
import {
  checkUsage,
  checkUsageQuery,
  type AppendOptions,
  type UsageQuery,
  type UsageTotals,
  type UserDataDeletion,
} from "../usage-totals";
import { addSqliteUsage, deleteSqliteUserData, previewAfterCut, readSqliteUsage } from "./sqlite-threads";
import { validateSessionId } from "../../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { builtInBackend } from "../built-in-backend";
import { sqliteStopSignals } from "./sqlite-stop-signals";
import { storeBackend, type StoreBackend } from "../store-backend";
import { SqliteFacts } from "./sqlite-facts";
import { cutSqliteMessages } from "./sqlite-delete-from";
import type { SqliteTables } from "./sqlite-schema";
import { openSqlite, type SqliteMemoryStoreOptions } from "./sqlite-open";
import { insertMessages, parseMessageRows, storedBodies } from "./sqlite-message-rows";
import { messageRange, tailLimit } from "../tail-limit";
import type { ContextReport, ContextReportReadOptions } from "../context-report";
import { keepContextReport, readContextReports, readSummaries } from "./sqlite-session-records";
import { entryOf, listSqliteSessions, type SessionRow } from "./sqlite-session-rows";
import { prepareStatements, type SqliteStatements } from "./sqlite-statements";
import { SqliteSessionLocks } from "./sqlite-session-lock";

export type { SqliteMemoryStoreOptions } from "./sqlite-open";

const store = "SqliteMemoryStore";

/**
 * Keeps sessions in a SQLite database file (better-sqlite3): one file, no server, safe with
 * several processes on one machine. WAL mode, a busy timeout, one `BEGIN IMMEDIATE`
 * transaction per write (a turn is appended whole or not at all), messages unique by
 * `(session_id, message_id)` so a retried append never duplicates, ordered by rowid. Each
 * session row keeps its `message_count`, updated by every write in the same transaction, so
 * `getMessageTail` and `getSession` never count the history. The schema is versioned in
 * `<prefix>schema_version` (not `user_version`, which belongs to whoever owns the database) and
 * migrated on open. While this instance holds a session's lock, its writes to that session are
 * fenced: each transaction first checks the lock is still its own (`SessionLockLostError` if not).
 */
export class SqliteMemoryStore implements MemoryStore {
  /** The better-sqlite3 database in use. */
  readonly database: Database;
  private readonly ownsDatabase: boolean;
  private readonly t: SqliteTables;
  private readonly lockLeaseMs: number;
  private readonly statements: SqliteStatements;
  private readonly locks: SqliteSessionLocks;
  /** The facts; a run's writes fenced by its session's lock in the same transaction (internal, `FencedFacts`). */
  private readonly facts: SqliteFacts;

  constructor(options: SqliteMemoryStoreOptions | string) {
    const opened = openSqlite(options, this.wrap.bind(this));
    this.database = opened.database;
    this.ownsDatabase = opened.ownsDatabase;
    this.t = opened.tables;
    this.lockLeaseMs = opened.lockLeaseMs;
    this.statements = prepareStatements(this.database, this.t);
    this.locks = new SqliteSessionLocks(this.statements, this.lockLeaseMs, (operation, sessionId, body) =>
      this.write(operation, sessionId, body),
    );
    this.facts = new SqliteFacts(this.statements, store, this.wrap.bind(this), this.fencedWrite.bind(this));
  }

  /** Closes the database when the store opened it from a file name. */
  close(): void {
    if (this.ownsDatabase && this.database.open) this.database.close();
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    const rows = this.wrap(
      "getMessages",
      sessionId,
      () => this.statements.messages.all(sessionId) as { body: string }[],
    );
    return parseMessageRows(rows, "getMessages", sessionId);
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, limit);
  }

  /** The last `limit` messages and the session's count, in one read transaction. */
  private readTail(operation: "getMessageTail", sessionId: string, limit: number): MessageTail {
    validateSessionId(sessionId);
    const count = tailLimit(limit, store, operation);
    const { rows, total } = this.wrap(operation, sessionId, () =>
      this.database
        .transaction(() => {
          const total =
            (this.statements.messageCount.get(sessionId) as { message_count: number } | undefined)?.message_count ?? 0;
          // LIMIT -1 is SQLite's "no limit" (an Infinity limit: the whole history).
          const rows =
            count === 0
              ? []
              : (this.statements.recent.all(sessionId, count === Infinity ? -1 : count) as { body: string }[]);
          return { rows, total };
        })
        .deferred(),
    );
    return { messages: parseMessageRows(rows.reverse(), operation, sessionId, total - rows.length), total };
  }

  /** Messages `start` to `end` (excluded) by their position in the session, read by the `(session_id, position)` index. */
  async getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    const range = messageRange(start, end, store);
    const rows = this.wrap(
      "getMessageRange",
      sessionId,
      () => this.statements.range.all(sessionId, range.start, range.end) as { body: string }[],
    );
    return parseMessageRows(rows, "getMessageRange", sessionId, range.start);
  }

  /**
   * Appends in one transaction with the preview of the messages stored and `options.usage` added
   * to the ledger (the session's and its owner's totals), both only when a message was stored.
   */
  async appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    if (options?.usage !== undefined) checkUsage(options.usage, `${store}.appendMessages`);
    if (messages.length === 0) return;
    const bodies = storedBodies(messages, "appendMessages", sessionId);
    this.fencedWrite("appendMessages", sessionId, () => {
      // Ids already stored are ignored by the insert and so not counted.
      const stored = this.insert(sessionId, bodies);
      this.touch(sessionId, stored.length, previewOf(stored.map((index) => messages[index]!)));
      if (stored.length > 0 && options?.usage) addSqliteUsage(this.statements, sessionId, options.usage);
    });
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const bodies = storedBodies(messages, "setMessages", sessionId);
    this.fencedWrite("setMessages", sessionId, () => {
      this.touch(sessionId);
      this.statements.deleteMessages.run(sessionId);
      this.statements.setCount.run(this.insert(sessionId, bodies).length, sessionId);
      this.statements.setPreview.run(previewOf(messages) ?? null, sessionId);
    });
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    this.cut(sessionId, messageId, []);
  }

  /**
   * The store's backend (internal, `backendOf`): the atomic delete-and-append of regenerate and
   * edit (one transaction), a generated title written only where none is, and a run's fenced fact writes.
   */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: SqliteMemoryStore.prototype,
      ...(this.database.memory ? {} : { streamLog: `sqlite:${this.database.name}:${this.t.messages}` }),
      stopSignals: sqliteStopSignals(this.database),
      replaceFrom: async (sessionId, messageId, messages, options) => this.cut(sessionId, messageId, messages, options),
      titleSession: async (sessionId, title, usage) => this.titleSession(sessionId, title, usage),
      facts: this.facts,
      // The row is created with its owner or left as it is, and its owner read, in one transaction.
      claimSession: async (sessionId, userId) =>
        this.fencedWrite("claimSession", sessionId, () => {
          const now = Date.now();
          this.statements.claimSession.run(sessionId, now, now, userId);
          const row = this.statements.sessionOwner.get(sessionId) as { user_id: string | null } | undefined;
          return row?.user_id ?? undefined;
        }),
    });
  }

  /** The cut and its replacement in one transaction, with the preview of what is left and `options.usage` in the ledger. */
  private cut(sessionId: string, messageId: string, messages: AgentMessage[], options?: AppendOptions): void {
    validateSessionId(sessionId);
    validateMessageIdArgument(messageId);
    validateMessageIds(messages);
    if (options?.usage !== undefined) checkUsage(options.usage, `${store}.deleteMessagesFrom`);
    const bodies = storedBodies(messages, "deleteMessagesFrom", sessionId);
    const found = this.fencedWrite("deleteMessagesFrom", sessionId, () => {
      const count = cutSqliteMessages(this.statements, store, sessionId, messageId, bodies);
      if (count === undefined) return false;
      this.touch(sessionId);
      const preview = previewAfterCut(this.statements, sessionId, count, messages);
      this.statements.setPreview.run(preview, sessionId);
      if (options?.usage) addSqliteUsage(this.statements, sessionId, options.usage);
      return true;
    });
    if (!found) throw new MessageNotFoundError({ sessionId, messageId });
  }

  /** Sets `title` on a session that exists and has none, adding `usage` to the ledger in the same transaction. */
  private titleSession(sessionId: string, title: string, usage: UsageTotals | undefined): boolean {
    validateSessionId(sessionId);
    if (usage !== undefined) checkUsage(usage, `${store}.titleSession`);
    return this.fencedWrite("updateSession", sessionId, () => {
      if (this.statements.titleIfNone.run(title, sessionId).changes === 0) return false;
      if (usage) addSqliteUsage(this.statements, sessionId, usage);
      return true;
    });
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    this.fencedWrite("clearMessages", sessionId, () => this.clear(sessionId));
  }

  getFacts(scopeId: string): Promise<Fact[]> {
    return this.facts.getFacts(scopeId);
  }

  factScopes(): Promise<string[]> {
    return this.facts.factScopes();
  }

  setFact(scopeId: string, fact: Fact): Promise<void> {
    return this.facts.setFact(scopeId, fact);
  }

  deleteFact(scopeId: string, key: string): Promise<boolean> {
    return this.facts.deleteFact(scopeId, key);
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    validateSessionId(sessionId);
    const row = this.wrap(
      "getSession",
      sessionId,
      () => this.statements.session.get(sessionId) as SessionRow | undefined,
    );
    return row ? entryOf(row, "getSession", this.t.sessions) : undefined;
  }

  async updateSession(sessionId: string, update: SessionUpdate): Promise<void> {
    validateSessionId(sessionId);
    const checked = checkSessionUpdate(update);
    this.fencedWrite("updateSession", sessionId, () => {
      this.touch(sessionId);
      this.statements.updateMeta.run(
        checked.agentName ?? null,
        checked.tags === undefined ? null : JSON.stringify(checked.tags),
        checked.title ?? null,
        checked.metadataJson ?? null,
        sessionId,
      );
    });
  }

  async getUsage(query: UsageQuery): Promise<UsageTotals> {
    checkUsageQuery(query);
    const about = "sessionId" in query ? query.sessionId : undefined;
    return this.wrap("getUsage", about, () => readSqliteUsage(this.statements, query));
  }

  /** Deletes a user's sessions one transaction each, then their facts and totals (`deleteSqliteUserData`). */
  async deleteUserData(userId: string): Promise<UserDataDeletion> {
    validateSessionId(userId, "userId");
    return deleteSqliteUserData(this.statements, this.write.bind(this), userId);
  }

  async entries(): Promise<SessionEntry[]> {
    return this.wrap("entries", undefined, () =>
      (this.statements.allSessions.all() as SessionRow[]).map((row) => entryOf(row, "entries", this.t.sessions)),
    );
  }

  async listSessions(options: ListSessionsOptions): Promise<SessionPage> {
    return listSqliteSessions(this.statements, this.wrap.bind(this), this.t.sessions, options);
  }

  async prune(options: { olderThan: number }): Promise<string[]> {
    return this.write("prune", undefined, () => {
      const ids = (this.statements.stale.all(options.olderThan) as { session_id: string }[]).map(
        (row) => row.session_id,
      );
      for (const id of ids) this.clear(id);
      return ids;
    });
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    return readSummaries(this.statements, this.wrap.bind(this), store, sessionId, options);
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    validateSessionId(sessionId);
    this.fencedWrite("saveSummary", sessionId, () => {
      this.touch(sessionId);
      this.statements.saveSummary.run(sessionId, record.id, JSON.stringify(record));
    });
  }

  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    keepContextReport(this.statements, this.fencedWrite.bind(this), store, sessionId, report);
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    return readContextReports(this.statements, this.wrap.bind(this), store, sessionId, options);
  }

  /**
   * A lock row with a lease, renewed while held; works across processes sharing the file. This
   * instance's writes to the session are fenced by it until the release (see `SqliteSessionLocks`).
   */
  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    validateSessionId(sessionId);
    return this.locks.acquire(sessionId, options);
  }

  /** Creates the session row or marks it written now, adding `added` to its message count and setting a preview when given. */
  private touch(sessionId: string, added = 0, preview?: string): void {
    const now = Date.now();
    this.statements.touch.run(sessionId, now, now, added, preview ?? null);
  }

  /** Inserts messages, skipping ids the session already holds. Returns the indexes of those inserted. */
  private insert(sessionId: string, bodies: (readonly [string | null, string])[]): number[] {
    return insertMessages(this.statements, sessionId, bodies);
  }

  private clear(sessionId: string): void {
    this.statements.deleteSession.run(sessionId);
    this.statements.deleteMessages.run(sessionId);
    this.statements.deleteSummaries.run(sessionId);
    this.statements.deleteContextReports.run(sessionId);
  }

  /** One `BEGIN IMMEDIATE` transaction: takes the write lock first, so it never deadlocks on upgrade. */
  private write<T>(operation: string, sessionId: string | undefined, body: () => T): T {
    return this.wrap(operation, sessionId, () => this.database.transaction(body).immediate());
  }

  /** `write`, refused with a `SessionLockLostError` when this instance held the session's lock and lost it. */
  private fencedWrite<T>(operation: string, sessionId: string, body: () => T): T {
    return this.write(operation, sessionId, () => {
      this.locks.fence(operation, sessionId);
      return body();
    });
  }

  private wrap<T>(operation: string, sessionId: string | undefined, body: () => T): T {
    try {
      return body();
    } catch (error) {
      if (StoreError.isInstance(error)) throw error;
      throw new StoreError({
        store,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `SQLite failed during ${operation}${sessionId === undefined ? "" : ` of session "${sessionId}"`}: ${errorText(error)}`,
        cause: error,
      });
    }
  }
}
