import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { copyMessages } from "../messages/copy-messages";
import type {
  Fact,
  ListSessionsOptions,
  MemoryStore,
  MessageTail,
  SessionEntry,
  SessionPage,
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "./memory-store";
import { compareListing, isAfter, sessionPage, sessionPageQuery } from "./session-page-query";
import { rejectUnknownOptions } from "./reject-unknown-options";
import { validateScopeId, validateSessionId } from "../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../messages/message-ids";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { cutIndex, idsOf, summariesAfterCut } from "./history-cut";
import { messageRange, tailLimit } from "./tail-limit";
import { entryOf, ScopeRecords, type ScopeRecord } from "./in-memory-records";
import { InMemoryUserLedger } from "./in-memory-ledger";
import { previewOf } from "./session-preview";
import { checkSessionUpdate, checkTitle } from "./session-metadata";
import {
  addTotals,
  checkUsage,
  checkUsageQuery,
  emptyTotals,
  type AppendOptions,
  type UsageQuery,
  type UsageTotals,
  type UserDataDeletion,
} from "./usage-totals";
import { builtInBackend } from "./built-in-backend";
import { storeBackend, type StoreBackend } from "./store-backend";
import { newestSummaries, summaryCount } from "./summary-count";
import {
  checkContextReport,
  contextReportCount,
  pushContextReport,
  type ContextReport,
  type ContextReportReadOptions,
} from "./context-report";

/** Options of {@link InMemoryStore}. */
export interface InMemoryStoreOptions {
  /**
   * Most sessions (and fact scopes) kept. Past it, the least recently used one is evicted,
   * messages, metadata, summaries and facts together. @default Infinity
   */
  maxSessions?: number;
  /**
   * Milliseconds a session (or fact scope) is kept after its last read or write. (Formerly `ttl`:
   * that name is refused, so a value meant as seconds cannot pass silently.) @default Infinity
   */
  ttlMs?: number;
}

/**
 * Keeps sessions and facts in this process's memory. The default store: fast, and gone when the
 * process exits. Values are copied in and out, so callers can never change what is stored.
 * Bound it with `maxSessions` (LRU eviction) and `ttlMs` on a long-running server.
 */
export class InMemoryStore implements MemoryStore {
  private readonly records: ScopeRecords;
  /** Each owner's running and daily usage totals. */
  private readonly ledger = new InMemoryUserLedger();

  constructor(options: InMemoryStoreOptions = {}) {
    if (options == null || typeof options !== "object") {
      throw new InvalidArgumentError({
        argument: "options",
        value: options,
        message: "new InMemoryStore() takes { maxSessions?, ttlMs? } or nothing.",
      });
    }
    const renamed = (options as { ttl?: unknown }).ttl;
    if (renamed !== undefined) {
      throw new InvalidArgumentError({
        argument: "ttl",
        value: renamed,
        message: `new InMemoryStore() has no option "ttl": it was renamed to "ttlMs", in milliseconds (an hour is ttlMs: 3_600_000).`,
      });
    }
    rejectUnknownOptions("InMemoryStore", options, ["maxSessions", "ttlMs"] satisfies (keyof InMemoryStoreOptions)[], {
      max: "maxSessions",
      maxSize: "maxSessions",
    });
    this.records = new ScopeRecords(positive(options.maxSessions, "maxSessions"), positive(options.ttlMs, "ttlMs"));
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    return copyMessages(this.records.find(sessionId)?.messages ?? []);
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, limit);
  }

  private readTail(operation: "getMessageTail", sessionId: string, limit: number, copy = true): MessageTail {
    validateSessionId(sessionId);
    const count = tailLimit(limit, "InMemoryStore", operation);
    const messages = this.records.find(sessionId)?.messages ?? [];
    if (count === 0) return { messages: [], total: messages.length };
    const tail = messages.slice(-count);
    return { messages: copy ? copyMessages(tail) : tail, total: messages.length };
  }

  /**
   * The store's backend (internal, `backendOf`): its public methods, and the run's own read
   * (`storedTail`: the stored objects themselves, which the run's parse copies). No lock.
   */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: InMemoryStore.prototype,
      locks: false,
      claimSession: async (sessionId, userId) => {
        validateSessionId(sessionId);
        const existing = this.records.find(sessionId)?.session;
        if (existing) return existing.userId;
        const record = this.records.use(sessionId);
        this.touchSession(record);
        record.session!.userId = userId;
        this.records.own(userId, sessionId);
        return userId;
      },
      titleSession: async (sessionId, title, usage) => {
        validateSessionId(sessionId);
        const checked = checkTitle(title);
        if (usage !== undefined) checkUsage(usage, "InMemoryStore.titleSession");
        const record = this.records.find(sessionId);
        if (!record?.session || record.session.title !== undefined) return false;
        record.session.title = checked;
        if (usage) this.spend(record, usage);
        return true;
      },
      replaceFrom: async (sessionId, messageId, messages, options) => {
        validateMessageIds(messages);
        if (options?.usage !== undefined) checkUsage(options.usage, "InMemoryStore.appendMessages");
        await this.deleteMessagesFrom(sessionId, messageId);
        const record = this.records.find(sessionId)!;
        this.store(record, messages);
        if (options?.usage) this.spend(record, options.usage);
      },
      storedTail: (sessionId, limit) => {
        if (limit !== undefined) return this.readTail("getMessageTail", sessionId, limit, false);
        validateSessionId(sessionId);
        const messages = this.records.find(sessionId)?.messages ?? [];
        return { messages: messages.slice(), total: messages.length };
      },
    });
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const record = this.records.use(sessionId);
    record.messages = copyMessages(messages);
    record.ids = new Set(record.messages.flatMap((message) => (message.id === undefined ? [] : [message.id])));
    this.touchSession(record);
    record.session!.preview = previewOf(record.messages);
  }

  async appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    if (options?.usage !== undefined) checkUsage(options.usage, "InMemoryStore.appendMessages");
    if (messages.length === 0) return;
    const record = this.records.use(sessionId);
    // The usage rides on the messages: a retried append that stores nothing new adds nothing.
    if (this.store(record, messages) && options?.usage) this.spend(record, options.usage);
  }

  async getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    const range = messageRange(start, end, "InMemoryStore");
    return copyMessages(this.records.find(sessionId)?.messages.slice(range.start, range.end) ?? []);
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIdArgument(messageId);
    const record = this.records.find(sessionId);
    const at = record ? cutIndex(record.messages, messageId) : -1;
    if (!record || at === -1) throw new MessageNotFoundError({ sessionId, messageId });
    const removed = idsOf(record.messages.slice(at));
    // Cut in place: a copy would cost O(session) here, and the next append would grow a fresh array again.
    record.messages.length = at;
    for (const id of removed) record.ids.delete(id);
    record.summaries = summariesAfterCut(record.summaries, at, removed);
    this.touchSession(record);
    // previewOf reads back from the end only until a message with text.
    record.session!.preview = previewOf(record.messages);
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    const record = this.records.find(sessionId);
    if (!record) return;
    record.messages = [];
    record.ids = new Set();
    this.records.unindex(sessionId, record);
    record.session = undefined;
    record.summaries = [];
    record.reports = [];
    if (record.facts.size === 0) this.records.delete(sessionId);
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    return structuredClone([...(this.records.find(scopeId)?.facts.values() ?? [])]);
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    validateScopeId(scopeId);
    this.records.use(scopeId).facts.set(fact.key, structuredClone(fact));
  }

  async factScopes(): Promise<string[]> {
    return [...this.records.all()].flatMap(([scopeId, record]) => (record.facts.size > 0 ? [scopeId] : [])).sort();
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    validateScopeId(scopeId);
    const record = this.records.find(scopeId);
    const existed = record?.facts.delete(key) ?? false;
    if (record && record.facts.size === 0 && !record.session) this.records.delete(scopeId);
    return existed;
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    validateSessionId(sessionId);
    const record = this.records.find(sessionId);
    return record?.session ? entryOf(sessionId, record, record.session) : undefined;
  }

  async updateSession(sessionId: string, metadata: SessionUpdate): Promise<void> {
    validateSessionId(sessionId);
    const update = checkSessionUpdate(metadata);
    const record = this.records.use(sessionId);
    this.touchSession(record);
    const session = record.session!;
    if (update.agentName !== undefined) session.agentName = update.agentName;
    if (update.tags !== undefined) session.tags = [...update.tags];
    if (update.title !== undefined) session.title = update.title;
    if (update.metadataJson !== undefined) session.metadataJson = update.metadataJson;
  }

  async getUsage(query: UsageQuery): Promise<UsageTotals> {
    checkUsageQuery(query);
    if ("sessionId" in query) {
      const usage = this.records.find(validateSessionId(query.sessionId))?.session?.usage;
      return usage ? { ...usage } : emptyTotals();
    }
    return this.ledger.read(query.userId, query.since);
  }

  /**
   * Deletes the user's sessions (messages, summaries, context reports, metadata, the facts of their
   * `session:<id>` scopes), the facts of `user:<userId>`, the user's usage totals and index. In this
   * process it is one synchronous step: nothing can interleave with it.
   */
  async deleteUserData(userId: string): Promise<UserDataDeletion> {
    validateSessionId(userId, "userId");
    const deleted: UserDataDeletion = { sessions: 0, messages: 0, facts: 0 };
    const now = Date.now();
    for (const sessionId of [...(this.records.ownedBy(userId) ?? [])]) {
      const record = this.records.peek(sessionId, now);
      if (record && record.session?.userId !== userId) continue;
      // An expired session's fact scope may outlive it: deleted too.
      deleted.facts += this.dropScope(`session:${sessionId}`);
      if (!record) continue;
      deleted.sessions++;
      deleted.messages += record.messages.length;
      deleted.facts += record.facts.size;
      this.records.delete(sessionId);
    }
    deleted.facts += this.dropScope(`user:${userId}`);
    this.records.disown(userId);
    this.ledger.forget(userId);
    return deleted;
  }

  async entries(): Promise<SessionEntry[]> {
    this.records.sweep(Date.now());
    return [...this.records.all()].flatMap(([id, record]) =>
      record.session ? [entryOf(id, record, record.session)] : [],
    );
  }

  async listSessions(options: ListSessionsOptions): Promise<SessionPage> {
    const { userId, limit, after } = sessionPageQuery(options);
    const sessions = this.records.ownedBy(userId);
    if (!sessions) return { sessions: [] };
    const now = Date.now();
    const rows: SessionEntry[] = [];
    for (const sessionId of sessions) {
      // Read without marking the session used: listing is not a use.
      const record = this.records.peek(sessionId, now);
      const session = record?.session;
      if (!record || !session || session.userId !== userId) {
        sessions.delete(sessionId);
        continue;
      }
      if (isAfter({ accessedAt: session.accessedAt, sessionId }, after)) rows.push(entryOf(sessionId, record, session));
    }
    if (sessions.size === 0) this.records.disown(userId);
    return sessionPage(rows.sort(compareListing), limit);
  }

  async prune(options: { olderThan: number }): Promise<string[]> {
    const pruned: string[] = [];
    for (const [id, record] of this.records.all()) {
      if (record.session && record.session.accessedAt < options.olderThan) {
        pruned.push(id);
        await this.clearMessages(id);
      }
    }
    return pruned;
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    validateSessionId(sessionId);
    const count = summaryCount(options, "InMemoryStore");
    return structuredClone(newestSummaries(this.records.find(sessionId)?.summaries ?? [], count));
  }

  async saveSummary(sessionId: string, summary: SummaryRecord): Promise<void> {
    validateSessionId(sessionId);
    const record = this.records.use(sessionId);
    if (record.summaries.some((existing) => existing.id === summary.id)) return;
    record.summaries.push(structuredClone(summary));
    this.touchSession(record);
  }

  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    checkContextReport(sessionId, report, "InMemoryStore");
    pushContextReport(this.records.use(sessionId).reports, structuredClone(report));
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    validateSessionId(sessionId);
    const count = contextReportCount(options, "InMemoryStore");
    return structuredClone(newestSummaries(this.records.find(sessionId)?.reports ?? [], count));
  }

  /** Appends what the record does not hold yet (by id); sets the preview from it. Resolves whether anything was stored. */
  private store(record: ScopeRecord, messages: AgentMessage[]): boolean {
    const fresh: AgentMessage[] = [];
    for (const message of copyMessages(messages)) {
      if (message.id !== undefined) {
        if (record.ids.has(message.id)) continue;
        record.ids.add(message.id);
      }
      record.messages.push(message);
      fresh.push(message);
    }
    this.touchSession(record);
    const preview = previewOf(fresh);
    if (preview !== undefined) record.session!.preview = preview;
    return fresh.length > 0;
  }

  /** Adds `usage` to the session's totals and, when it has an owner, to the owner's. */
  private spend(record: ScopeRecord, usage: UsageTotals): void {
    const session = record.session!;
    session.usage = addTotals(session.usage ?? emptyTotals(), usage);
    if (session.userId !== undefined) this.ledger.add(session.userId, usage, Date.now());
  }

  /** Deletes a fact scope's record (only its facts: no session lives under a `session:` or `user:` id). Returns how many facts it held. */
  private dropScope(scopeId: string): number {
    const facts = this.records.peek(scopeId, Date.now())?.facts.size ?? 0;
    this.records.delete(scopeId);
    return facts;
  }

  /** Marks the session written, at the time `use` or `find` just gave the record (`usedAt`): no second clock read. */
  private touchSession(record: ScopeRecord): void {
    const now = record.usedAt;
    if (record.session) record.session.accessedAt = Math.max(now, record.session.accessedAt);
    else record.session = { createdAt: now, accessedAt: now };
  }
}

function positive(value: number | undefined, argument: string): number {
  if (value === undefined) return Infinity;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: `${argument} must be a positive number, got ${String(value)}.`,
    });
  }
  return value;
}
