import type { Pool } from "pg";
import type { AgentMessage } from "../../messages/agent-message";
import type {
  Fact,
  MemoryStore,
  MessageTail,
  SessionEntry,
  ListSessionsOptions,
  SessionPage,
  SessionLockOptions,
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import type { AppendOptions, UsageQuery, UsageTotals, UserDataDeletion } from "../usage-totals";
import { previewOf } from "../session-preview";
import { PostgresThreads } from "./postgres-threads";
import { setPostgresMessages } from "./postgres-set-messages";
import { pendingLedger, usageValues } from "./postgres-usage-sql";
import { validateSessionId } from "../../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { builtInBackend } from "../built-in-backend";
import { prunePostgresSessions } from "./postgres-prune";
import { PostgresStopSignals, postgresStopChannel } from "./postgres-stop-signals";
import { postgresStreamLog } from "./postgres-stream-log";
import { storeBackend, type StoreBackend } from "../store-backend";
import { PostgresFacts } from "./postgres-facts";
import { cutPostgresMessages } from "./postgres-delete-from";
import { parseStoredMessage } from "../stored-json";
import { tailLimit } from "../tail-limit";
import type { ContextReport, ContextReportReadOptions } from "../context-report";
import { PostgresSessionRecords } from "./postgres-session-records";
import { migrateTables, postgresTables, type PostgresTables } from "./postgres-schema";
import { PostgresAppendBatcher } from "./postgres-append-batcher";
import { PostgresSessionLeases } from "./postgres-session-leases";
import { PostgresTurnFolding } from "./postgres-turn-folding";
import { PostgresTurnSql, uniqueById, type TailRow } from "./postgres-turn-sql";
import { isConnectionError, PostgresStatements, postgresStoreError } from "./postgres-statements";
import { entryOf, SESSION_COLUMNS, type SessionRow } from "./postgres-session-rows";
import { checkPostgresOptions, type PostgresMemoryStoreOptions } from "./postgres-memory-store-options";

const store = "PostgresMemoryStore";

/**
 * Keeps sessions in PostgreSQL, for agents served by many processes or machines.
 *
 * Tables (`<prefix>sessions`, `<prefix>messages`, `<prefix>facts`, `<prefix>summaries`) are
 * created by `migrate()`, which also runs on first use; `<prefix>schema_version` records the
 * version. Messages are ordered by a per-session sequence handed out from the session row: an
 * append is one statement that locks that row (so concurrent appends to one session queue up,
 * other sessions never wait), takes the next numbers and inserts, skipping ids already stored
 * (unique `(session_id, message_id)`). Two statement-level triggers on the messages table
 * (functions `<prefix>messages_inserted` / `<prefix>messages_deleted`) keep the row's
 * `message_count` exact for every insert and delete, in the same statement, so `getMessageTail`
 * reads a tail and the session's size in one statement without counting the history. Bodies are JSON in `text` columns, so they round-trip
 * byte for byte (`jsonb` would reorder keys and refuse `\u0000`). SQL is parameterised; only
 * the validated schema and prefix are spliced in, quoted.
 */
export class PostgresMemoryStore implements MemoryStore {
  private readonly pool: Pool;
  private readonly schema: string;
  private readonly tablePrefix: string;
  private readonly tables: PostgresTables;
  private readonly leases: PostgresSessionLeases;
  private readonly sql: PostgresTurnSql;
  private readonly appends: PostgresAppendBatcher;
  /** The agent's folded turn statements (internal, see `TurnFolding`). */
  private readonly folding: PostgresTurnFolding;
  private readonly statements: PostgresStatements;
  private readonly records: PostgresSessionRecords;
  /** The facts; a run's writes fenced by its session's lease in the same statement (internal, `FencedFacts`). */
  private readonly facts: PostgresFacts;
  /** Message ranges, the usage ledger's reads, generated titles, deleting a user's data. */
  private readonly threads: PostgresThreads;

  constructor(options: PostgresMemoryStoreOptions) {
    const checked = checkPostgresOptions(store, options);
    this.pool = checked.pool;
    this.schema = checked.schema;
    this.tablePrefix = checked.tablePrefix;
    this.tables = postgresTables(this.schema, this.tablePrefix);
    this.statements = new PostgresStatements(this.pool, store, checked.preparedStatements, () => this.migrate());
    const run = <Row extends object>(
      operation: string,
      sessionId: string | undefined,
      sql: string,
      values: unknown[],
    ) => this.statements.query<Row>(operation, sessionId, sql, values);
    this.leases = new PostgresSessionLeases(this.tables.locks, checked.lockLeaseMs, run);
    this.records = new PostgresSessionRecords(this.tables, run, store, this.leases, (operation, sessionId, body) =>
      this.statements.transaction(operation, sessionId, body),
    );
    this.facts = new PostgresFacts(this.tables.facts, run, store, this.leases);
    this.threads = new PostgresThreads(
      this.tables,
      run,
      (operation, sessionId, body) => this.statements.transaction(operation, sessionId, body),
      store,
      this.leases,
    );
    this.sql = new PostgresTurnSql(this.tables, store);
    this.appends = new PostgresAppendBatcher(
      this.tables,
      this.sql,
      {
        fence: (session, token) => this.leases.fence(session, token),
        fenceAndRelease: (session, token) => this.leases.fenceAndRelease(session, token),
        table: this.tables.locks,
      },
      async (sql, values) => (await this.pool.query(this.statements.statement(sql, values))).rows,
      isConnectionError,
      // One statement in flight: measured against 2 and 4 in the load benchmark, it spent the least PostgreSQL CPU per turn (1.6 ms against 1.9 and 2.1) with as many turns per second.
      1,
    );
    this.folding = new PostgresTurnFolding(
      this.leases,
      this.sql,
      async <Row extends object>(sql: string, values: unknown[]) => {
        await this.statements.ensureReady();
        return (await this.pool.query(this.statements.statement(sql, values))).rows as Row[];
      },
      {
        readTail: (sessionId, limit) => this.readTail("getMessageTail", sessionId, limit),
        append: (sessionId, messages, release, options) => this.appendFresh(sessionId, messages, release, options),
      },
      isConnectionError,
    );
  }

  /**
   * Creates the schema and tables, or upgrades them, under an advisory lock so concurrent
   * processes migrate once. Safe to call any number of times; runs on first use anyway.
   */
  async migrate(): Promise<void> {
    await this.statements.transaction("migrate", undefined, (client) =>
      migrateTables(client, { schema: this.schema, tablePrefix: this.tablePrefix, tables: this.tables, store }),
    );
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    const rows = await this.statements.query<{ body: string }>(
      "getMessages",
      sessionId,
      `SELECT body FROM ${this.tables.messages} WHERE session_id = $1 ORDER BY seq`,
      [sessionId],
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

  /** The last `limit` messages and the session's count, in one statement. */
  private async readTail(operation: "getMessageTail", sessionId: string, limit: number): Promise<MessageTail> {
    validateSessionId(sessionId);
    const count = tailLimit(limit, store, operation);
    // One row per message, newest first, each carrying the count; a session without messages
    // (or limit 0) gives one row whose body is null; an unknown session gives none.
    const rows = await this.statements.query<TailRow>(
      operation,
      sessionId,
      this.sql.tail(2, `FROM ${this.tables.sessions} s`, { where: "WHERE s.session_id = $1" }),
      // LIMIT NULL is no limit (an Infinity limit: the whole history).
      [sessionId, count === Infinity ? null : count],
    );
    return this.sql.parseTail(rows, sessionId, operation);
  }

  async appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const fresh = uniqueById(messages);
    if (fresh.length === 0) return;
    await this.appendFresh(sessionId, fresh, false, options);
  }

  /**
   * Appends messages without repeated ids in one statement (see `PostgresTurnSql.append`), shared
   * with the appends of other sessions sent at the same time (`PostgresAppendBatcher`). While this
   * store holds the session's lock, the statement writes only if the lease is still this holder's
   * (fencing: a holder whose lease was taken over is refused); with `release`, it also releases
   * it. The append's preview and `options.usage` are recorded in the same statement, when it
   * stores a message (see `PostgresTurnSql.append`). Resolves to whether it released the lease.
   */
  private async appendFresh(
    sessionId: string,
    messages: AgentMessage[],
    release: boolean,
    options: AppendOptions | undefined,
  ): Promise<boolean> {
    const ledger = pendingLedger(sessionId, messages, options, `${store}.appendMessages`);
    const bodies = this.sql.encode(sessionId, messages, "appendMessages");
    await this.statements.ensureReady();
    const token = this.leases.tokenOf(sessionId);
    let ok: boolean;
    try {
      ok = await this.appends.append({
        sessionId,
        messages,
        bodies,
        token,
        release: release && token !== null,
        ledger,
      });
    } catch (error) {
      throw postgresStoreError(store, "appendMessages", sessionId, error);
    }
    if (!ok) throw this.leases.lostError("appendMessages", sessionId);
    if (!release || token === null) return false;
    this.leases.unlockedBy(sessionId, token);
    return true;
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    // Stored exactly as given; a repeated id keeps its first occurrence (ids are unique per session).
    const seen = new Set<string>();
    const bodies = this.sql.encode(sessionId, messages, "setMessages");
    const rows = messages.flatMap((message, index) => {
      if (message.id !== undefined) {
        if (seen.has(message.id)) return [];
        seen.add(message.id);
      }
      return [{ id: message.id ?? null, body: bodies[index]! }];
    });
    const { tables, leases } = this;
    const preview = previewOf(messages);
    await this.statements.transaction("setMessages", sessionId, (client) =>
      setPostgresMessages(client, { tables, leases, sessionId, rows, preview }),
    );
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    await this.cut(sessionId, messageId, []);
  }

  /** The store's backend (internal, `backendOf`): the folded turn (the lock, the tail and the last append in fewer round trips), the atomic delete-and-append of regenerate and edit (one transaction), and a run's fenced fact writes. */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: PostgresMemoryStore.prototype,
      stopSignals: new PostgresStopSignals(this.pool, postgresStopChannel(this.schema, this.tablePrefix)),
      folding: this.folding,
      replaceFrom: async (sessionId, messageId, messages, options) => this.cut(sessionId, messageId, messages, options),
      titleSession: (sessionId, title, usage) => this.threads.titleSession(sessionId, title, usage),
      facts: this.facts,
      streamLog: postgresStreamLog(this.pool, this.schema, this.tablePrefix),
      claimSession: (sessionId, userId) => this.records.claimSession(sessionId, userId),
    });
  }

  private async cut(
    sessionId: string,
    messageId: string,
    messages: AgentMessage[],
    options?: AppendOptions,
  ): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIdArgument(messageId);
    validateMessageIds(messages);
    const fresh = uniqueById(messages);
    const ledger = pendingLedger(sessionId, fresh, options, `${store}.deleteMessagesFrom`);
    const bodies = this.sql.encode(sessionId, fresh, "deleteMessagesFrom");
    const appended = fresh.map((message, index) => ({ id: message.id ?? null, body: bodies[index]! }));
    const { tables, leases } = this;
    await this.statements.transaction("deleteMessagesFrom", sessionId, (client) =>
      cutPostgresMessages(client, {
        store,
        tables,
        leases,
        sessionId,
        messageId,
        appended,
        preview: ledger?.preview,
        usage: options?.usage === undefined ? undefined : usageValues(options.usage),
      }),
    );
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    const t = this.tables;
    await this.statements.transaction("clearMessages", sessionId, async (client) => {
      // The session row first: it waits for an append in flight, and holds later ones back.
      await client.query(`DELETE FROM ${t.sessions} WHERE session_id = $1`, [sessionId]);
      await client.query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [sessionId]);
      await client.query(`DELETE FROM ${t.summaries} WHERE session_id = $1`, [sessionId]);
      await client.query(`DELETE FROM ${t.contextReports} WHERE session_id = $1`, [sessionId]);
    });
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
    const rows = await this.statements.query<SessionRow>(
      "getSession",
      sessionId,
      `${this.sessionSelect()} WHERE s.session_id = $1`,
      [sessionId],
    );
    return rows[0] ? entryOf(rows[0], "getSession", this.tables.sessions) : undefined;
  }

  updateSession(sessionId: string, metadata: SessionUpdate): Promise<void> {
    return this.records.updateSession(sessionId, metadata);
  }

  getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    return this.threads.getMessageRange(sessionId, start, end);
  }

  getUsage(query: UsageQuery): Promise<UsageTotals> {
    return this.threads.getUsage(query);
  }

  /** Deletes a user's sessions and facts, a batch of sessions per transaction (see `PostgresThreads.deleteUserData`). */
  deleteUserData(userId: string): Promise<UserDataDeletion> {
    return this.threads.deleteUserData(userId);
  }

  listSessions(options: ListSessionsOptions): Promise<SessionPage> {
    return this.records.listSessions(options, this.sessionSelect());
  }

  async entries(): Promise<SessionEntry[]> {
    const rows = await this.statements.query<SessionRow>(
      "entries",
      undefined,
      `${this.sessionSelect()} ORDER BY s.accessed_at`,
      [],
    );
    return rows.map((row) => entryOf(row, "entries", this.tables.sessions));
  }

  prune(options: { olderThan: number }): Promise<string[]> {
    return prunePostgresSessions(this.statements, this.tables, options.olderThan);
  }

  getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    return this.records.getSummaries(sessionId, options);
  }

  saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    return this.records.saveSummary(sessionId, record);
  }

  saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    return this.records.saveContextReport(sessionId, report);
  }

  getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    return this.records.getContextReports(sessionId, options);
  }

  /**
   * A session lock that holds no connection: a lease row taken, renewed and released by short
   * statements on the pool (see `PostgresSessionLeases`). Writes of this store to the session
   * check the lease while it is held, so a holder that lost it cannot commit.
   */
  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    validateSessionId(sessionId);
    return this.leases.acquire(sessionId, options);
  }

  private sessionSelect(): string {
    return `SELECT ${SESSION_COLUMNS} FROM ${this.tables.sessions} s`;
  }
}
