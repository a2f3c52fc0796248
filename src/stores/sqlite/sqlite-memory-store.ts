import { errorText } from "../../errors/error-text";
import type { Database } from "better-sqlite3";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
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
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { validateSessionId } from "../../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { builtInBackend } from "../built-in-backend";
import { storeBackend, type StoreBackend } from "../store-backend";
import { SqliteFacts } from "./sqlite-facts";
import { cutSqliteMessages } from "./sqlite-delete-from";
import { rejectUnknownOptions } from "../reject-unknown-options";
import { loadBetterSqlite3 } from "./load-better-sqlite3";
import { encodeStoredMessageJson, parseStoredMessage } from "../stored-json";
import { tailLimit } from "../tail-limit";
import type { ContextReport, ContextReportReadOptions } from "../context-report";
import { keepContextReport, readContextReports, readSummaries } from "./sqlite-session-records";
import { migrateTables, sqliteTables, type SqliteTables } from "./sqlite-schema";
import { entryOf, listSqliteSessions, type SessionRow } from "./sqlite-session-rows";
import { prepareStatements, type SqliteStatements } from "./sqlite-statements";
import { SqliteSessionLocks } from "./sqlite-session-lock";

/** Options of {@link SqliteMemoryStore}. */
export interface SqliteMemoryStoreOptions {
  /** A file name (opened, and closed by `close()`), or a better-sqlite3 `Database` you own. */
  database: string | Database;
  /** How long a write waits for another process's transaction, in ms. @default 5000 */
  busyTimeoutMs?: number;
  /** Put before each table name. Lower-case letters, digits, `_`. @default "agentcore_" */
  tablePrefix?: string;
  /** How long a session lock lives without being renewed (a crashed holder frees it after this). @default 30_000 */
  lockLeaseMs?: number;
  /**
   * SQLite's `synchronous` setting. `"full"` fsyncs every commit: a turn that resolved survives
   * power loss. `"normal"` (WAL) survives a process crash but may lose the last turns on power
   * loss, for about ten times less latency per write. @default "full"
   */
  synchronous?: "full" | "normal";
}

const store = "SqliteMemoryStore";
const knownOptions = [
  "database",
  "busyTimeoutMs",
  "synchronous",
  "tablePrefix",
  "lockLeaseMs",
] as const satisfies readonly (keyof SqliteMemoryStoreOptions)[];
const identifier = /^[a-z_][a-z0-9_]{0,39}$/;

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
    const resolved: SqliteMemoryStoreOptions = typeof options === "string" ? { database: options } : options;
    if (resolved == null || typeof resolved !== "object" || resolved.database == null) {
      throw new InvalidArgumentError({
        argument: "database",
        message: 'new SqliteMemoryStore() needs a file name or { database }: e.g. new SqliteMemoryStore("./agent.db").',
      });
    }
    rejectUnknownOptions(store, resolved, knownOptions, {
      tableName: "tablePrefix",
      prefix: "tablePrefix",
      path: "database",
      filename: "database",
      timeout: "busyTimeoutMs",
    });
    const prefix = resolved.tablePrefix ?? "agentcore_";
    if (!identifier.test(prefix)) {
      throw new InvalidArgumentError({
        argument: "tablePrefix",
        value: prefix,
        message: `tablePrefix must match ${identifier}, got ${JSON.stringify(prefix)}.`,
      });
    }
    this.lockLeaseMs = resolved.lockLeaseMs ?? 30_000;
    // Outside the try: a missing better-sqlite3 is its own error (the install command), not a bad path.
    const BetterSqlite3 = typeof resolved.database === "string" ? loadBetterSqlite3() : undefined;
    try {
      this.ownsDatabase = typeof resolved.database === "string";
      this.database = BetterSqlite3 ? new BetterSqlite3(resolved.database as string) : (resolved.database as Database);
    } catch (error) {
      throw new StoreError({
        store,
        operation: "open",
        message: `Could not open the SQLite database ${String(resolved.database)}: ${errorText(error)}. Check the path and its directory's permissions.`,
        cause: error,
      });
    }
    this.t = sqliteTables(prefix);
    this.wrap("open", undefined, () => {
      this.database.pragma(`busy_timeout = ${Math.max(0, Math.floor(resolved.busyTimeoutMs ?? 5000))}`);
      if (!this.database.memory) this.database.pragma("journal_mode = WAL");
      this.database.pragma(`synchronous = ${resolved.synchronous === "normal" ? "NORMAL" : "FULL"}`);
      migrateTables(this.database, this.t, store);
    });
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
    return rows.map((row, index) =>
      parseStoredMessage(row.body, {
        store,
        operation: "getMessages",
        sessionId,
        record: `message ${index}`,
      }),
    );
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
    const messages = rows.reverse().map((row, index) =>
      parseStoredMessage(row.body, {
        store,
        operation,
        sessionId,
        record: `message ${total - rows.length + index}`,
      }),
    );
    return { messages, total };
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    if (messages.length === 0) return;
    const bodies = storedBodies(messages, "appendMessages", sessionId);
    this.fencedWrite("appendMessages", sessionId, () => {
      // Ids already stored are ignored by the insert and so not counted.
      this.touch(sessionId, this.insert(sessionId, bodies));
    });
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const bodies = storedBodies(messages, "setMessages", sessionId);
    this.fencedWrite("setMessages", sessionId, () => {
      this.touch(sessionId);
      this.statements.deleteMessages.run(sessionId);
      this.statements.setCount.run(this.insert(sessionId, bodies), sessionId);
    });
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    this.cut(sessionId, messageId, []);
  }

  /** The store's backend (internal, `backendOf`): the atomic delete-and-append of regenerate and edit (one transaction), and a run's fenced fact writes. */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: SqliteMemoryStore.prototype,
      ...(this.database.memory ? {} : { streamLog: `sqlite:${this.database.name}:${this.t.messages}` }),
      replaceFrom: async (sessionId, messageId, messages) => this.cut(sessionId, messageId, messages),
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

  private cut(sessionId: string, messageId: string, messages: AgentMessage[]): void {
    validateSessionId(sessionId);
    validateMessageIdArgument(messageId);
    validateMessageIds(messages);
    const bodies = storedBodies(messages, "deleteMessagesFrom", sessionId);
    const found = this.fencedWrite("deleteMessagesFrom", sessionId, () => {
      const cut = cutSqliteMessages(this.statements, store, sessionId, messageId, bodies);
      if (cut) this.touch(sessionId);
      return cut;
    });
    if (!found) throw new MessageNotFoundError({ sessionId, messageId });
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

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    validateSessionId(sessionId);
    this.fencedWrite("updateSession", sessionId, () => {
      this.touch(sessionId);
      this.statements.updateMeta.run(
        metadata.agentName ?? null,
        metadata.tags === undefined ? null : JSON.stringify(metadata.tags),
        sessionId,
      );
    });
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

  /** Creates the session row or marks it written now, adding `added` to its message count. */
  private touch(sessionId: string, added = 0): void {
    const now = Date.now();
    this.statements.touch.run(sessionId, now, now, added);
  }

  /** Inserts messages, skipping ids the session already holds. Returns how many were inserted. */
  private insert(sessionId: string, bodies: (readonly [string | null, string])[]): number {
    let inserted = 0;
    for (const [id, body] of bodies) inserted += this.statements.insertOrIgnore.run(sessionId, id, body).changes;
    return inserted;
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

/** The (id, JSON) rows of messages about to be written; a message JSON cannot encode is a `StoreError`. */
function storedBodies(messages: AgentMessage[], operation: string, sessionId: string) {
  return messages.map(
    (message, index) =>
      [
        message.id ?? null,
        encodeStoredMessageJson(message, { store, operation, sessionId, record: `message ${index}` }),
      ] as const,
  );
}
