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
import { validateSessionId } from "../../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { cutIndex } from "../history-cut";
import { builtInBackend } from "../built-in-backend";
import { inProcessStopSignals } from "../stop-signals";
import { storeBackend, type StoreBackend } from "../store-backend";
import { copyMessages } from "../../messages/copy-messages";
import { messageRange, tailLimit } from "../tail-limit";
import { newestSummaries, summaryCount } from "../summary-count";
import {
  checkContextReport,
  contextReportCount,
  type ContextReport,
  type ContextReportReadOptions,
} from "../context-report";
import { checkSessionUpdate } from "../session-metadata";
import {
  checkUsage,
  checkUsageQuery,
  emptyTotals,
  type AppendOptions,
  type UsageQuery,
  type UsageTotals,
  type UserDataDeletion,
} from "../usage-totals";
import { entryOf, listFileSessions } from "./file-session-entries";
import { sessionPageQuery } from "../session-page-query";
import { FileFacts } from "./file-facts";
import { ledgerUsage } from "./file-ledger";
import { FileStoreEngine } from "./file-store-engine";
import { resolveFileStoreOptions, type FileMemoryStoreOptions } from "./file-store-options";
import { deleteFileUserData, titleFileSession } from "./file-threads";
import { FileTurnFolding } from "./file-turn-folding";

export type { FileMemoryStoreOptions } from "./file-store-options";

const store = "FileMemoryStore";

/**
 * Keeps sessions in one readable JSON file, for a laptop, a CLI or a single small server.
 *
 * On disk, beside `path` (the snapshot: pretty JSON, one object per session):
 * - `path.journal`: JSON Lines, one change per line, appended (and fsynced) under the lock. A
 *   turn costs one appended line, whatever the size of the file. Readers apply only the lines
 *   they have not seen yet.
 * - Compaction folds the journal into a new snapshot once the journal outgrows both
 *   `compactAfterBytes` and the snapshot: temp file, fsync, rename, directory fsync, then a
 *   fresh journal the same way. Snapshot and journal carry a generation number, so a journal
 *   left over from a compaction that crashed half way is recognised and never applied twice.
 * - A line cut short by a crash was never acknowledged: readers skip it and the next writer
 *   truncates it. The journal's header records the length acknowledged so far, so a journal
 *   truncated below it, or missing beside its snapshot, is corruption, not a torn write.
 *   Anything else that does not parse is corruption too: a `CorruptStoreError` is
 *   thrown, a copy is kept at `<file>.corrupt-<hash>`, and the file is left in place so no
 *   process ever starts over from an empty history by mistake.
 * - `path.lock` (a lock file refreshed while held, taken over atomically when stale: see
 *   `LockFile`) serialises writers across processes; in a process, writes also queue on a promise chain. Reads take no file
 *   lock, but queue on the same chain (concurrent reads share one refresh): two refreshes, or a
 *   refresh and a write, interleaving would apply the same journal lines twice.
 *
 * Session ids never become paths: they are keys inside the JSON.
 */
export class FileMemoryStore implements MemoryStore {
  readonly path: string;
  private readonly engine: FileStoreEngine;
  /** The agent's folded turn (internal, see `TurnFolding`): a run's user message and answer share one fsync. */
  private readonly folding: FileTurnFolding;
  /** The facts; a run's writes fenced by its session's lock (internal, `FencedFacts`). */
  private readonly facts: FileFacts;

  constructor(options: FileMemoryStoreOptions | string) {
    const resolved = resolveFileStoreOptions(options);
    this.path = resolved.path;
    this.engine = new FileStoreEngine(resolved);
    this.facts = new FileFacts(this.engine);
    this.folding = new FileTurnFolding({
      lockSession: (sessionId, lockOptions) => this.lockSession(sessionId, lockOptions),
      readTail: (sessionId, limit) => this.readTail("getMessageTail", sessionId, limit),
      append: (sessionId, messages, sync, appendOptions) => this.append(sessionId, messages, sync, appendOptions),
      sync: (sessionId) => this.engine.sync("appendMessages", sessionId),
    });
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    await this.engine.read("getMessages", sessionId);
    return copyMessages(this.engine.state.sessions.get(sessionId)?.messages ?? []);
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, limit);
  }

  /**
   * The tail and the size of a session, both taken from one state: the in-memory state brought
   * up to date with the journal by the same lock-free refresh as `getMessages`. Only the tail
   * is copied.
   */
  private async readTail(operation: "getMessageTail", sessionId: string, limit: number): Promise<MessageTail> {
    validateSessionId(sessionId);
    const count = tailLimit(limit, store, operation);
    await this.engine.read(operation, sessionId);
    const messages = this.engine.state.sessions.get(sessionId)?.messages ?? [];
    return { messages: count === 0 ? [] : copyMessages(messages.slice(-count)), total: messages.length };
  }

  /** Messages `start` to `end` (excluded) of the session, copied from the state (only those). */
  async getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    const range = messageRange(start, end, store);
    await this.engine.read("getMessageRange", sessionId);
    return copyMessages(this.engine.state.sessions.get(sessionId)?.messages.slice(range.start, range.end) ?? []);
  }

  /**
   * Appends the messages whose ids are not stored yet, with `options.usage` in the same journal
   * line (added to the ledger only when a message is stored); resolves once fsynced (with `fsync` on).
   */
  async appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void> {
    await this.append(sessionId, messages, true, options);
  }

  /** `appendMessages`; `sync: false` leaves the fsync to the run's next durable write (see `FileTurnFolding`). */
  private async append(
    sessionId: string,
    messages: AgentMessage[],
    sync: boolean,
    options?: AppendOptions,
  ): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const usage = options?.usage;
    if (usage !== undefined) checkUsage(usage, `${store}.appendMessages`);
    if (messages.length === 0) return;
    const copy = copyMessages(messages);
    await this.engine.write(
      "appendMessages",
      sessionId,
      (state) => {
        const stored = state.sessions.get(sessionId)?.ids;
        const batch = new Set<string>();
        const fresh = copy.filter((message) => {
          if (message.id === undefined) return true;
          if (stored?.has(message.id) || batch.has(message.id)) return false;
          batch.add(message.id);
          return true;
        });
        if (fresh.length === 0) return undefined;
        return { op: "append", session: sessionId, messages: fresh, at: Date.now(), ...(usage ? { usage } : {}) };
      },
      { sync, fenced: true },
    );
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
    const copy = copyMessages(messages);
    await this.engine.write(
      "setMessages",
      sessionId,
      () => ({
        op: "set",
        session: sessionId,
        messages: copy,
        at: Date.now(),
      }),
      { fenced: true },
    );
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    await this.cut(sessionId, messageId, []);
  }

  /** The store's backend (internal, `backendOf`): the folded turn (one fsync per turn), the atomic delete-and-append of regenerate and edit (one journal line), a run's fenced fact writes, stops for runs of this process on the same file. */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: FileMemoryStore.prototype,
      stopSignals: inProcessStopSignals(`file:${this.path}`),
      folding: this.folding,
      streamLog: `file:${this.path}`,
      replaceFrom: (sessionId, messageId, messages, options) => this.cut(sessionId, messageId, messages, options),
      titleSession: (sessionId, title, usage) => titleFileSession(this.engine, sessionId, title, usage),
      facts: this.facts,
      // Read and, for a new session, written under the store's write lock: one journal line.
      claimSession: async (sessionId, userId) => {
        validateSessionId(sessionId);
        let owner: string | undefined = userId;
        await this.engine.write(
          "claimSession",
          sessionId,
          (state) => {
            const session = state.sessions.get(sessionId);
            owner = session ? session.userId : userId;
            return session ? undefined : { op: "own", session: sessionId, userId, at: Date.now() };
          },
          { fenced: true },
        );
        return owner;
      },
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
    const usage = options?.usage;
    if (usage !== undefined) checkUsage(usage, `${store}.deleteMessagesFrom`);
    const copy = copyMessages(messages);
    let found = true;
    await this.engine.write(
      "deleteMessagesFrom",
      sessionId,
      (state) => {
        const keep = cutIndex(state.sessions.get(sessionId)?.messages ?? [], messageId);
        found = keep !== -1;
        if (!found) return undefined;
        return { op: "cut", session: sessionId, keep, messages: copy, at: Date.now(), ...(usage ? { usage } : {}) };
      },
      { fenced: true },
    );
    if (!found) throw new MessageNotFoundError({ sessionId, messageId });
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    await this.engine.write(
      "clearMessages",
      sessionId,
      (state) => (state.sessions.has(sessionId) ? { op: "clear", session: sessionId } : undefined),
      { fenced: true },
    );
  }

  getFacts(scopeId: string): Promise<Fact[]> {
    return this.facts.getFacts(scopeId);
  }

  setFact(scopeId: string, fact: Fact): Promise<void> {
    return this.facts.setFact(scopeId, fact);
  }

  factScopes(): Promise<string[]> {
    return this.facts.factScopes();
  }

  deleteFact(scopeId: string, key: string): Promise<boolean> {
    return this.facts.deleteFact(scopeId, key);
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    validateSessionId(sessionId);
    await this.engine.read("getSession", sessionId);
    const session = this.engine.state.sessions.get(sessionId);
    return session ? entryOf(sessionId, session) : undefined;
  }

  async updateSession(sessionId: string, update: SessionUpdate): Promise<void> {
    validateSessionId(sessionId);
    const checked = checkSessionUpdate(update);
    const metadata = checked.metadataJson === undefined ? undefined : JSON.parse(checked.metadataJson);
    await this.engine.write(
      "updateSession",
      sessionId,
      () => ({
        op: "meta",
        session: sessionId,
        ...(checked.agentName === undefined ? {} : { agentName: checked.agentName }),
        ...(checked.tags === undefined ? {} : { tags: [...checked.tags] }),
        ...(checked.title === undefined ? {} : { title: checked.title }),
        ...(metadata === undefined ? {} : { metadata }),
        at: Date.now(),
      }),
      { fenced: true },
    );
  }

  async getUsage(query: UsageQuery): Promise<UsageTotals> {
    checkUsageQuery(query);
    const about = "sessionId" in query ? query.sessionId : undefined;
    await this.engine.read("getUsage", about);
    const state = this.engine.state;
    if ("sessionId" in query) return { ...(state.sessions.get(query.sessionId)?.usage ?? emptyTotals()) };
    return ledgerUsage(state.ledger, query.userId, query.since);
  }

  /** One journal line deletes the user's sessions, their facts and the user's totals (`deleteFileUserData`). */
  deleteUserData(userId: string): Promise<UserDataDeletion> {
    return deleteFileUserData(this.engine, userId);
  }

  async entries(): Promise<SessionEntry[]> {
    await this.engine.read("entries", undefined);
    return [...this.engine.state.sessions].map(([id, session]) => entryOf(id, session));
  }

  async listSessions(options: ListSessionsOptions): Promise<SessionPage> {
    const query = sessionPageQuery(options);
    await this.engine.read("listSessions", undefined);
    return listFileSessions(this.engine.state, query);
  }

  async prune(options: { olderThan: number }): Promise<string[]> {
    let pruned: string[] = [];
    await this.engine.write("prune", undefined, (state) => {
      pruned = [...state.sessions].filter(([, session]) => session.accessedAt < options.olderThan).map(([id]) => id);
      return pruned.length === 0 ? undefined : { op: "prune", sessions: pruned };
    });
    return pruned;
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    validateSessionId(sessionId);
    const count = summaryCount(options, store);
    await this.engine.read("getSummaries", sessionId);
    return structuredClone(newestSummaries(this.engine.state.sessions.get(sessionId)?.summaries ?? [], count));
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    validateSessionId(sessionId);
    const copy = structuredClone(record);
    await this.engine.write(
      "saveSummary",
      sessionId,
      (state) =>
        state.sessions.get(sessionId)?.summaries.some((summary) => summary.id === copy.id)
          ? undefined
          : { op: "summary", session: sessionId, summary: copy, at: Date.now() },
      { fenced: true },
    );
  }

  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    checkContextReport(sessionId, report, store);
    const copy = structuredClone(report);
    await this.engine.write(
      "saveContextReport",
      sessionId,
      (state) => {
        const session = state.sessions.get(sessionId);
        return !session || session.reports?.some((existing) => existing.id === copy.id)
          ? undefined
          : { op: "report", session: sessionId, report: copy };
      },
      // Diagnostics: the line rides on the run's next synced write (its last append) for its fsync.
      { fenced: true, sync: false },
    );
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    validateSessionId(sessionId);
    const count = contextReportCount(options, store);
    await this.engine.read("getContextReports", sessionId);
    return structuredClone(newestSummaries(this.engine.state.sessions.get(sessionId)?.reports ?? [], count));
  }

  /**
   * A cross-process lock on one session, held for a whole agent run. Its lock file is named by
   * a hash of the id (`<path>.session-<sha256>.lock`), never by the id itself. While it is held,
   * this instance's writes to the session's messages, metadata, summaries and context reports are fenced: once the
   * lock was lost (this process stalled past `staleLockMs` and another took the session), they are
   * refused with `SessionLockLostError` and write nothing.
   */
  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    validateSessionId(sessionId);
    return this.engine.lockSession(sessionId, options);
  }
}
