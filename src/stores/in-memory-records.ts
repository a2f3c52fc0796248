// What the in-memory store keeps under one id, the records in LRU order with their owner index, and
// the `SessionEntry` it gives for a session.
import type { AgentMessage } from "../messages/agent-message";
import type { ContextReport } from "./context-report";
import type { Fact, SessionEntry, SummaryRecord } from "./memory-store";
import type { SessionMetadata } from "./session-metadata";
import { emptyTotals, type UsageTotals } from "./usage-totals";

/** A session's own fields (what `SessionEntry` reports beside the messages). */
export interface SessionFields {
  createdAt: number;
  accessedAt: number;
  agentName?: string;
  tags?: string[];
  /** The owner, recorded when a run with a userId created the session. */
  userId?: string;
  title?: string;
  /** The app's metadata as JSON (parsed on every read, so callers never share the stored object). */
  metadataJson?: string;
  /** What the session's model calls spent; undefined: nothing yet. */
  usage?: UsageTotals;
  preview?: string;
}

/** Everything kept under one id: a session's messages and metadata, and the facts of that scope. */
export interface ScopeRecord {
  messages: AgentMessage[];
  ids: Set<string>;
  /** Present once the session has been written; facts alone do not make a session. */
  session: SessionFields | undefined;
  summaries: SummaryRecord[];
  /** Context reports, oldest first, at most MAX_CONTEXT_REPORTS. */
  reports: ContextReport[];
  facts: Map<string, Fact>;
  /** Last read or write, for LRU and ttlMs. */
  usedAt: number;
}

/** A new, empty record used at `now`. */
export function emptyRecord(now: number): ScopeRecord {
  return {
    messages: [],
    ids: new Set(),
    session: undefined,
    summaries: [],
    reports: [],
    facts: new Map(),
    usedAt: now,
  };
}

/**
 * The in-memory store's records, least- to most-recently used (a Map keeps insertion order; a use
 * moves a record to the end), bounded by `maxSessions` and `ttlMs`, with the per-user index of
 * `listSessions`: owner → the sessions created theirs (cleared, pruned and evicted sessions leave it
 * when a listing meets them).
 */
export class ScopeRecords {
  private readonly records = new Map<string, ScopeRecord>();
  /** The id `find` last moved to the end of `records` (it is still there: moving it again would change nothing). */
  private lastUsed: string | undefined;
  private readonly owned = new Map<string, Set<string>>();

  constructor(
    private readonly maxSessions: number,
    private readonly ttlMs: number,
  ) {}

  /** The live record of an id, marking it used; undefined when absent or expired. */
  find(id: string): ScopeRecord | undefined {
    const record = this.records.get(id);
    if (!record) return undefined;
    const now = Date.now();
    if (now - record.usedAt > this.ttlMs) {
      this.delete(id);
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
  use(id: string): ScopeRecord {
    const found = this.find(id);
    if (found) return found;
    const now = Date.now();
    const record = emptyRecord(now);
    this.records.set(id, record);
    this.lastUsed = id;
    this.sweep(now);
    return record;
  }

  /** The record of an id without marking it used (a listing is not a use); undefined when absent or expired. */
  peek(id: string, now: number): ScopeRecord | undefined {
    const record = this.records.get(id);
    return record && now - record.usedAt <= this.ttlMs ? record : undefined;
  }

  /** Every record, least recently used first. */
  all(): IterableIterator<[string, ScopeRecord]> {
    return this.records.entries();
  }

  /** Deletes a record, taking its session out of its owner's index. */
  delete(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    this.unindex(id, record);
    if (this.lastUsed === id) this.lastUsed = undefined;
  }

  /** Drops expired records and, past `maxSessions`, the least recently used ones. */
  sweep(now: number): void {
    for (const [id, record] of this.records) {
      const expired = now - record.usedAt > this.ttlMs;
      if (!expired && this.records.size <= this.maxSessions) break;
      this.delete(id);
    }
  }

  /** Records `userId` as the owner of the session `id`. */
  own(userId: string, id: string): void {
    let sessions = this.owned.get(userId);
    if (!sessions) this.owned.set(userId, (sessions = new Set()));
    sessions.add(id);
  }

  /** The ids in the user's index (some may have been cleared or evicted since: check their records). */
  ownedBy(userId: string): Set<string> | undefined {
    return this.owned.get(userId);
  }

  /** Forgets the user's index (`deleteUserData`), or the ids no longer theirs after a listing left it empty. */
  disown(userId: string): void {
    this.owned.delete(userId);
  }

  /** Takes a session that is cleared, expired or evicted out of its owner's index. */
  unindex(id: string, record: ScopeRecord): void {
    const owner = record.session?.userId;
    const sessions = owner === undefined ? undefined : this.owned.get(owner);
    if (!sessions) return;
    sessions.delete(id);
    if (sessions.size === 0) this.owned.delete(owner!);
  }
}

/** The `SessionEntry` of a session, copied out of the record. */
export function entryOf(sessionId: string, record: ScopeRecord, session: SessionFields): SessionEntry {
  return {
    sessionId,
    createdAt: session.createdAt,
    accessedAt: session.accessedAt,
    messageCount: record.messages.length,
    ...(session.agentName === undefined ? {} : { agentName: session.agentName }),
    ...(session.tags === undefined ? {} : { tags: [...session.tags] }),
    ...(session.userId === undefined ? {} : { userId: session.userId }),
    ...(session.title === undefined ? {} : { title: session.title }),
    ...(session.metadataJson === undefined ? {} : { metadata: JSON.parse(session.metadataJson) as SessionMetadata }),
    usage: session.usage ? { ...session.usage } : emptyTotals(),
    ...(session.preview === undefined ? {} : { preview: session.preview }),
  };
}
