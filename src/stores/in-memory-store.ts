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
  SummaryReadOptions,
  SummaryRecord,
} from "./memory-store";
import { compareListing, isAfter, sessionPage, sessionPageQuery } from "./session-page-query";
import { rejectUnknownOptions } from "./reject-unknown-options";
import { validateScopeId, validateSessionId } from "../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../messages/message-ids";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { cutIndex, idsOf, summariesAfterCut } from "./history-cut";
import { tailLimit } from "./tail-limit";
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

interface SessionMetadata {
  createdAt: number;
  accessedAt: number;
  agentName?: string;
  tags?: string[];
  /** The owner, recorded when a run with a userId created the session. */
  userId?: string;
}

/** Everything kept under one id: a session's messages and metadata, and the facts of that scope. */
interface ScopeRecord {
  messages: AgentMessage[];
  ids: Set<string>;
  /** Present once the session has been written; facts alone do not make a session. */
  session: SessionMetadata | undefined;
  summaries: SummaryRecord[];
  /** Context reports, oldest first, at most MAX_CONTEXT_REPORTS. */
  reports: ContextReport[];
  facts: Map<string, Fact>;
  /** Last read or write, for LRU and ttlMs. */
  usedAt: number;
}

/**
 * Keeps sessions and facts in this process's memory. The default store: fast, and gone when the
 * process exits. Values are copied in and out, so callers can never change what is stored.
 * Bound it with `maxSessions` (LRU eviction) and `ttlMs` on a long-running server.
 */
export class InMemoryStore implements MemoryStore {
  /** In least- to most-recently-used order (a Map keeps insertion order; use moves to the end). */
  private readonly records = new Map<string, ScopeRecord>();
  private readonly maxSessions: number;
  private readonly ttlMs: number;
  /** The id `find` last moved to the end of `records` (it is still there: moving it again would change nothing). */
  private lastUsed: string | undefined;
  /**
   * The per-user index of `listSessions`: owner → the sessions created theirs. Cleared, pruned and
   * evicted sessions leave it when a listing meets them.
   */
  private readonly owned = new Map<string, Set<string>>();

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
    this.maxSessions = positive(options.maxSessions, "maxSessions");
    this.ttlMs = positive(options.ttlMs, "ttlMs");
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    return copyMessages(this.find(sessionId)?.messages ?? []);
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, limit);
  }

  private readTail(operation: "getMessageTail", sessionId: string, limit: number, copy = true): MessageTail {
    validateSessionId(sessionId);
    const count = tailLimit(limit, "InMemoryStore", operation);
    const messages = this.find(sessionId)?.messages ?? [];
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
        const existing = this.find(sessionId)?.session;
        if (existing) return existing.userId;
        const record = this.use(sessionId);
        this.touchSession(record);
        record.session!.userId = userId;
        let sessions = this.owned.get(userId);
        if (!sessions) this.owned.set(userId, (sessions = new Set()));
        sessions.add(sessionId);
        return userId;
      },
      storedTail: (sessionId, limit) => {
        if (limit !== undefined) return this.readTail("getMessageTail", sessionId, limit, false);
        validateSessionId(sessionId);
        const messages = this.find(sessionId)?.messages ?? [];
        return { messages: messages.slice(), total: messages.length };
      },
    });
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const record = this.use(sessionId);
    record.messages = copyMessages(messages);
    record.ids = new Set(record.messages.flatMap((message) => (message.id === undefined ? [] : [message.id])));
    this.touchSession(record);
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    if (messages.length === 0) return;
    const record = this.use(sessionId);
    for (const message of copyMessages(messages)) {
      if (message.id !== undefined) {
        if (record.ids.has(message.id)) continue;
        record.ids.add(message.id);
      }
      record.messages.push(message);
    }
    this.touchSession(record);
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIdArgument(messageId);
    const record = this.find(sessionId);
    const at = record ? cutIndex(record.messages, messageId) : -1;
    if (!record || at === -1) throw new MessageNotFoundError({ sessionId, messageId });
    const removed = idsOf(record.messages.slice(at));
    // Cut in place: a copy would cost O(session) here, and the next append would grow a fresh array again.
    record.messages.length = at;
    for (const id of removed) record.ids.delete(id);
    record.summaries = summariesAfterCut(record.summaries, at, removed);
    this.touchSession(record);
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    const record = this.find(sessionId);
    if (!record) return;
    record.messages = [];
    record.ids = new Set();
    this.unindex(sessionId, record);
    record.session = undefined;
    record.summaries = [];
    record.reports = [];
    if (record.facts.size === 0) this.records.delete(sessionId);
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    return structuredClone([...(this.find(scopeId)?.facts.values() ?? [])]);
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    validateScopeId(scopeId);
    this.use(scopeId).facts.set(fact.key, structuredClone(fact));
  }

  async factScopes(): Promise<string[]> {
    return [...this.records].flatMap(([scopeId, record]) => (record.facts.size > 0 ? [scopeId] : [])).sort();
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    validateScopeId(scopeId);
    const record = this.find(scopeId);
    const existed = record?.facts.delete(key) ?? false;
    if (record && record.facts.size === 0 && !record.session) this.records.delete(scopeId);
    return existed;
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    validateSessionId(sessionId);
    const record = this.find(sessionId);
    return record?.session ? entryOf(sessionId, record, record.session) : undefined;
  }

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    validateSessionId(sessionId);
    const record = this.use(sessionId);
    this.touchSession(record);
    if (metadata.agentName !== undefined) record.session!.agentName = metadata.agentName;
    if (metadata.tags !== undefined) record.session!.tags = [...metadata.tags];
  }

  async entries(): Promise<SessionEntry[]> {
    this.sweep(Date.now());
    return [...this.records].flatMap(([id, record]) => (record.session ? [entryOf(id, record, record.session)] : []));
  }

  async listSessions(options: ListSessionsOptions): Promise<SessionPage> {
    const { userId, limit, after } = sessionPageQuery(options);
    const sessions = this.owned.get(userId);
    if (!sessions) return { sessions: [] };
    const now = Date.now();
    const rows: SessionEntry[] = [];
    for (const sessionId of sessions) {
      // Read without marking the session used: listing is not a use.
      const record = this.records.get(sessionId);
      const session = record?.session;
      if (!record || !session || session.userId !== userId || now - record.usedAt > this.ttlMs) {
        sessions.delete(sessionId);
        continue;
      }
      if (isAfter({ accessedAt: session.accessedAt, sessionId }, after)) rows.push(entryOf(sessionId, record, session));
    }
    if (sessions.size === 0) this.owned.delete(userId);
    return sessionPage(rows.sort(compareListing), limit);
  }

  async prune(options: { olderThan: number }): Promise<string[]> {
    const pruned: string[] = [];
    for (const [id, record] of this.records) {
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
    return structuredClone(newestSummaries(this.find(sessionId)?.summaries ?? [], count));
  }

  async saveSummary(sessionId: string, summary: SummaryRecord): Promise<void> {
    validateSessionId(sessionId);
    const record = this.use(sessionId);
    if (record.summaries.some((existing) => existing.id === summary.id)) return;
    record.summaries.push(structuredClone(summary));
    this.touchSession(record);
  }

  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    checkContextReport(sessionId, report, "InMemoryStore");
    pushContextReport(this.use(sessionId).reports, structuredClone(report));
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    validateSessionId(sessionId);
    const count = contextReportCount(options, "InMemoryStore");
    return structuredClone(newestSummaries(this.find(sessionId)?.reports ?? [], count));
  }

  /** The live record of an id, marking it used; undefined when absent or expired. */
  private find(id: string): ScopeRecord | undefined {
    const record = this.records.get(id);
    if (!record) return undefined;
    const now = Date.now();
    if (now - record.usedAt > this.ttlMs) {
      this.records.delete(id);
      this.unindex(id, record);
      return undefined;
    }
    record.usedAt = now;
    if (this.lastUsed !== id) {
      this.records.delete(id);
      this.records.set(id, record);
      this.lastUsed = id;
    }
    return record;
  }

  /** The record of an id, created when absent; evicts past the bounds. */
  private use(id: string): ScopeRecord {
    const found = this.find(id);
    if (found) return found;
    const now = Date.now();
    const record: ScopeRecord = {
      messages: [],
      ids: new Set(),
      session: undefined,
      summaries: [],
      reports: [],
      facts: new Map(),
      usedAt: now,
    };
    this.records.set(id, record);
    this.lastUsed = id;
    this.sweep(now);
    return record;
  }

  /** Drops expired records and, past `maxSessions`, the least recently used ones. */
  private sweep(now: number): void {
    for (const [id, record] of this.records) {
      const expired = now - record.usedAt > this.ttlMs;
      if (!expired && this.records.size <= this.maxSessions) break;
      this.records.delete(id);
      this.unindex(id, record);
    }
  }

  /** Takes a session that is cleared, expired or evicted out of its owner's index. */
  private unindex(id: string, record: ScopeRecord): void {
    const owner = record.session?.userId;
    const sessions = owner === undefined ? undefined : this.owned.get(owner);
    if (!sessions) return;
    sessions.delete(id);
    if (sessions.size === 0) this.owned.delete(owner!);
  }

  /** Marks the session written, at the time `use` or `find` just gave the record (`usedAt`): no second clock read. */
  private touchSession(record: ScopeRecord): void {
    const now = record.usedAt;
    if (record.session) record.session.accessedAt = Math.max(now, record.session.accessedAt);
    else record.session = { createdAt: now, accessedAt: now };
  }
}

function entryOf(sessionId: string, record: ScopeRecord, session: SessionMetadata): SessionEntry {
  return {
    sessionId,
    createdAt: session.createdAt,
    accessedAt: session.accessedAt,
    messageCount: record.messages.length,
    ...(session.agentName === undefined ? {} : { agentName: session.agentName }),
    ...(session.tags === undefined ? {} : { tags: [...session.tags] }),
    ...(session.userId === undefined ? {} : { userId: session.userId }),
  };
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
