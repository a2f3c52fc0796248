import { resolve } from "node:path";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
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
import { rejectUnknownOptions } from "../reject-unknown-options";
import { validateScopeId, validateSessionId } from "../../messages/session-id";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { cutIndex } from "../history-cut";
import { builtInBackend } from "../built-in-backend";
import type { FencedFacts } from "../built-in-store-parts";
import { storeBackend, type StoreBackend } from "../store-backend";
import { copyMessages } from "../../messages/copy-messages";
import { tailLimit } from "../tail-limit";
import { newestSummaries, summaryCount } from "../summary-count";
import {
  checkContextReport,
  contextReportCount,
  type ContextReport,
  type ContextReportReadOptions,
} from "../context-report";
import { entryOf, listFileSessions, type FileState } from "./file-state";
import { sessionPageQuery } from "../session-page-query";
import { FileStoreEngine } from "./file-store-engine";
import { FileTurnFolding } from "./file-turn-folding";

/** Options of {@link FileMemoryStore}. */
export interface FileMemoryStoreOptions {
  /** The snapshot file, e.g. `./storage/agent-sessions.json`. Its directory is created when missing. */
  path: string;
  /** fsync each write before it resolves (survives power loss, not only a crash). @default true */
  fsync?: boolean;
  /**
   * Journal size, in bytes, past which it is folded into the snapshot (never less than the
   * snapshot's own size, so compaction costs O(1) per byte written, amortised). @default 1_048_576
   */
  compactAfterBytes?: number;
  /** A lock not refreshed for this long belongs to a dead process and is broken. Minimum 2000. @default 10_000 */
  staleLockMs?: number;
  /** How long a write waits for another process's lock before failing. @default 30_000 */
  lockTimeoutMs?: number;
}

const store = "FileMemoryStore";
const knownOptions = ["path", "fsync", "compactAfterBytes", "staleLockMs", "lockTimeoutMs"] as const;
/** Names users bring from other libraries (nedb/lowdb `filename`, proper-lockfile `stale`). */
const optionAliases: Record<string, string> = {
  filename: "path",
  fileName: "path",
  file: "path",
  filePath: "path",
  sync: "fsync",
  stale: "staleLockMs",
  lockTimeout: "lockTimeoutMs",
};

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

  constructor(options: FileMemoryStoreOptions | string) {
    const resolved = typeof options === "string" ? { path: options } : options;
    if (
      resolved == null ||
      typeof resolved !== "object" ||
      typeof resolved.path !== "string" ||
      resolved.path.length === 0
    ) {
      throw new InvalidArgumentError({
        argument: "path",
        message: 'new FileMemoryStore() needs a file path, e.g. new FileMemoryStore("./storage/agent-sessions.json").',
      });
    }
    rejectUnknownOptions(store, resolved, knownOptions, optionAliases);
    this.path = resolve(resolved.path);
    this.engine = new FileStoreEngine({
      path: this.path,
      fsync: resolved.fsync ?? true,
      compactAfterBytes: resolved.compactAfterBytes ?? 1_048_576,
      staleLockMs: Math.max(2000, resolved.staleLockMs ?? 10_000),
      lockTimeoutMs: resolved.lockTimeoutMs ?? 30_000,
    });
    this.folding = new FileTurnFolding({
      lockSession: (sessionId, lockOptions) => this.lockSession(sessionId, lockOptions),
      readTail: (sessionId, limit) => this.readTail("getMessageTail", sessionId, limit),
      append: (sessionId, messages, sync) => this.append(sessionId, messages, sync),
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

  /** Appends the messages whose ids are not stored yet; resolves once they are fsynced (with `fsync` on). */
  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    await this.append(sessionId, messages, true);
  }

  /** `appendMessages`; `sync: false` leaves the fsync to the run's next durable write (see `FileTurnFolding`). */
  private async append(sessionId: string, messages: AgentMessage[], sync: boolean): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIds(messages);
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
        return fresh.length === 0 ? undefined : { op: "append", session: sessionId, messages: fresh, at: Date.now() };
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

  /**
   * The store's backend (internal, `backendOf`): the folded turn (one fsync per turn), the atomic
   * delete-and-append of regenerate and edit (one journal line), and a run's fenced fact writes.
   */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: FileMemoryStore.prototype,
      folding: this.folding,
      streamLog: `file:${this.path}`,
      replaceFrom: (sessionId, messageId, messages) => this.cut(sessionId, messageId, messages),
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

  private async cut(sessionId: string, messageId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    validateMessageIdArgument(messageId);
    validateMessageIds(messages);
    const copy = copyMessages(messages);
    let found = true;
    await this.engine.write(
      "deleteMessagesFrom",
      sessionId,
      (state) => {
        const keep = cutIndex(state.sessions.get(sessionId)?.messages ?? [], messageId);
        found = keep !== -1;
        return found ? { op: "cut", session: sessionId, keep, messages: copy, at: Date.now() } : undefined;
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

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    await this.engine.read("getFacts", scopeId);
    return structuredClone([...(this.engine.state.facts.get(scopeId)?.values() ?? [])]);
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    await this.facts.setFact(scopeId, fact);
  }

  async factScopes(): Promise<string[]> {
    await this.engine.read("factScopes", undefined);
    return [...this.engine.state.facts].flatMap(([scopeId, facts]) => (facts.size > 0 ? [scopeId] : [])).sort();
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    return this.facts.deleteFact(scopeId, key);
  }

  /**
   * The fact writes (`FencedFacts`): one journal line each; a run's (naming its `writer` session)
   * fenced by the lock this store holds on that session, as its appends are.
   */
  private readonly facts = {
    setFact: async (scopeId: string, fact: Fact, writer?: string): Promise<void> => {
      validateScopeId(scopeId);
      const copy = structuredClone(fact);
      const change = () => ({ op: "fact", scope: scopeId, fact: copy }) as const;
      await this.engine.write("setFact", writer ?? scopeId, change, { fenced: writer !== undefined });
    },
    deleteFact: async (scopeId: string, key: string, writer?: string): Promise<boolean> => {
      validateScopeId(scopeId);
      let existed = false;
      const change = (state: FileState) => {
        existed = state.facts.get(scopeId)?.has(key) ?? false;
        return existed ? ({ op: "unfact", scope: scopeId, key } as const) : undefined;
      };
      await this.engine.write("deleteFact", writer ?? scopeId, change, { fenced: writer !== undefined });
      return existed;
    },
  } satisfies FencedFacts;

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    validateSessionId(sessionId);
    await this.engine.read("getSession", sessionId);
    const session = this.engine.state.sessions.get(sessionId);
    return session ? entryOf(sessionId, session) : undefined;
  }

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    validateSessionId(sessionId);
    await this.engine.write(
      "updateSession",
      sessionId,
      () => ({
        op: "meta",
        session: sessionId,
        ...(metadata.agentName === undefined ? {} : { agentName: metadata.agentName }),
        ...(metadata.tags === undefined ? {} : { tags: [...metadata.tags] }),
        at: Date.now(),
      }),
      { fenced: true },
    );
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
