import { errorText } from "../errors/error-text";
import { AgentCoreError } from "../errors/agent-core-error";
import { StoreError } from "../errors/store-error";
import { AbortError } from "../errors/abort-error";
import type { AgentMessage } from "../messages/agent-message";
import type {
  Fact,
  MemoryStore,
  MessageTail,
  SessionEntry,
  SessionLockOptions,
  SummaryReadOptions,
  SummaryRecord,
} from "./memory-store";
import { factStorage, sessionOfScope } from "./fact-storage";
import { contextReportCalls, type AdaptedContextReports } from "./context-report-calls";
import { newestSummaries, summaryCount } from "./summary-count";
import { SessionQueue } from "./session-queue";
import { openStoreTurn, type StoreTurn, type TurnCalls, type TurnOptions } from "./store-turn";
import { turnFoldingOf } from "./turn-folding";
import { storedTailOf } from "./stored-tail";
import { waitUnlessAborted } from "./wait-unless-aborted";
import { cutIndex, idsOf, replaceMessagesFromOf, summariesAfterCut } from "./delete-messages-from";
import { MessageNotFoundError } from "../errors/message-not-found-error";

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
}

/**
 * A store as the rest of agentcore uses it: every optional method answered (natively or by a
 * fallback), every failure a `StoreError` naming the store (typed agentcore errors such as
 * `SessionBusyError` or `CorruptStoreError` pass through unchanged). Get one with `adaptStore`.
 */
export interface AdaptedStore extends AdaptedContextReports {
  /** The store wrapped. */
  readonly store: MemoryStore;
  /** The store's name in errors (its class name, or "custom store"). */
  readonly name: string;
  readonly capabilities: Readonly<StoreCapabilities>;
  getMessages(sessionId: string): Promise<AgentMessage[]>;
  setMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
  clearMessages(sessionId: string): Promise<void>;
  /**
   * Appends messages: atomically and idempotently with the store's `appendMessages`, otherwise by
   * read-modify-write (the caller holds the session's lock) skipping ids already stored, so a
   * retry never duplicates.
   */
  appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
  /**
   * Deletes the session's messages from `messageId` on (included): the store's
   * `deleteMessagesFrom`, or a read-modify-write (the caller holds the session's lock). A
   * `MessageNotFoundError` when the session has no such message: nothing deleted.
   */
  deleteMessagesFrom(sessionId: string, messageId: string): Promise<void>;
  /**
   * `deleteMessagesFrom`, then `messages` appended: in one write where the store can (built-in
   * stores; a custom store without `deleteMessagesFrom`: one `setMessages`), otherwise the two
   * calls in a row.
   */
  replaceMessagesFrom(sessionId: string, messageId: string, messages: AgentMessage[]): Promise<void>;
  /** The last `limit` messages and the session's size: the store's `getMessageTail`, or a full read sliced. */
  getMessageTail(sessionId: string, limit: number): Promise<MessageTail>;
  /**
   * The facts of a scope (`session:<id>` or `user:<id>`, see `factScopeId`), as `Fact[]` whichever
   * fact shape the store has (docs/stores.md): a key → value store's facts have timestamps 0.
   * `sessionId` (the run's, when known) fills a `StoreError`'s field; a `session:` scope names its own.
   */
  getFacts(scopeId: string, sessionId?: string): Promise<Fact[]>;
  /** Stores a fact (the whole `Fact` in a rich store, key and value in a key → value store); with `sessionId`, it and deleteFact are fenced by that session's lock on a built-in store (`fencedFacts`). */
  setFact(scopeId: string, fact: Fact, sessionId?: string): Promise<void>;
  deleteFact(scopeId: string, key: string, sessionId?: string): Promise<void>;
  /**
   * The summaries of a session, oldest first: the store's own, or those kept in this process; with
   * `{ last: n }` the newest `n` only (kept here too when a custom store returns more).
   */
  getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]>;
  /** Keeps a summary (idempotent by `record.id`): in the store, or in this process. */
  saveSummary(sessionId: string, record: SummaryRecord): Promise<void>;
  /** Takes the store's cross-process session lock; resolves to its release, or undefined when the store has none. */
  lockSession(sessionId: string, options: SessionLockOptions): Promise<(() => Promise<void>) | undefined>;
  /**
   * Opens a run's turn on a session: takes the lock (where the store has one) and gives the run its
   * history and its appends, each the store's fastest way (`stores/store-turn.ts`).
   */
  openTurn(sessionId: string, options: TurnOptions): Promise<StoreTurn>;
  /**
   * Runs `task` once no other task of this adapter runs on the session in this process: for a
   * read-modify-write outside a run (the conversation memories' writes). Not the agent's run queue.
   */
  exclusive<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
  /** Metadata of a session; undefined when unknown or when the store keeps none. */
  getSession(sessionId: string): Promise<SessionEntry | undefined>;
  /** Records metadata on a session; does nothing when the store keeps none. */
  updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void>;
  /** Every session with its metadata. Check `capabilities.entries` first: a `StoreError` when the store cannot list. */
  entries(): Promise<SessionEntry[]>;
  /** Deletes sessions not accessed since `olderThan`. Check `capabilities.prune` first: a `StoreError` when the store cannot prune. */
  prune(options: { olderThan: number }): Promise<string[]>;
  /** The scope ids that hold facts. Check `capabilities.factScopes` first: a `StoreError` when the store cannot list them. */
  factScopes(): Promise<string[]>;
}

const adapted = new WeakMap<MemoryStore, AdaptedStore>();

/** Wraps a store once (the same object for the same store): the one place optional methods are probed. */
export function adaptStore(store: MemoryStore): AdaptedStore {
  let adapter = adapted.get(store);
  if (!adapter) {
    adapter = createAdapter(store);
    adapted.set(store, adapter);
  }
  return adapter;
}

/** A store's name in errors: its class name, or "custom store" for a plain object. */
export function storeName(store: MemoryStore): string {
  const name = (store as { constructor?: { name?: string } }).constructor?.name;
  return name && name !== "Object" ? name : "custom store";
}

function createAdapter(store: MemoryStore): AdaptedStore {
  const name = storeName(store);
  const has = (method: keyof MemoryStore) => typeof store[method] === "function";
  const capabilities: StoreCapabilities = Object.freeze({
    appendMessages: has("appendMessages"),
    deleteMessagesFrom: has("deleteMessagesFrom"),
    getMessageTail: has("getMessageTail"),
    summaries: has("getSummaries") && has("saveSummary"),
    lockSession: has("lockSession"),
    getSession: has("getSession"),
    updateSession: has("updateSession"),
    entries: has("entries"),
    prune: has("prune"),
    factScopes: has("factScopes"),
    contextReports: has("saveContextReport") && has("getContextReports"),
  });
  /** Runs one store call; a failure that is not already a typed agentcore error becomes a StoreError. */
  const call = async <T>(
    operation: string,
    sessionId: string | undefined,
    describe: string,
    work: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (AgentCoreError.isInstance(error)) throw error;
      throw new StoreError({
        store: name,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `${describe} (${name}): ${errorText(error)}`,
        cause: error,
      });
    }
  };
  const unsupported = (operation: string) =>
    new StoreError({ store: name, operation, message: `The ${name} has no ${operation}().` });
  /** Summaries of a store without getSummaries / saveSummary: lost on restart, which costs one summariser call, never a message. */
  const localSummaries = new Map<string, SummaryRecord[]>();
  const reports = contextReportCalls(store, name, call);
  /** The store's fact methods, in whichever of the two shapes it has. */
  const facts = factStorage(store);
  /** The store's folded turn statements (built-in stores), when it has them. */
  const folding = capabilities.lockSession && capabilities.appendMessages ? turnFoldingOf(store) : undefined;
  /** The store's delete-and-append in one write (built-in stores), when it has one. */
  const replaceAtomically = capabilities.deleteMessagesFrom ? replaceMessagesFromOf(store) : undefined;
  /** Read-modify-writes outside a run, one at a time per session (`exclusive`). */
  const writes = new SessionQueue();
  /** Waits for a lock honouring the signal, even when a custom store ignores it; a lock it takes later is released. */
  const lockUnlessAborted = async <T>(
    locking: Promise<T>,
    release: (taken: T) => (() => Promise<void>) | undefined,
    options: SessionLockOptions,
    sessionId: string,
  ): Promise<T> => {
    try {
      return await waitUnlessAborted(locking, options.signal, sessionId);
    } catch (error) {
      if (AbortError.isInstance(error))
        locking.then(
          (taken) => release(taken)?.().catch(() => {}),
          () => {},
        );
      throw error;
    }
  };

  const reading = (sessionId: string) => `Could not read the history of session "${sessionId}"`;
  const adapter: AdaptedStore = Object.freeze({
    store,
    name,
    capabilities,
    getMessages: (sessionId) =>
      call("getMessages", sessionId, reading(sessionId), async () => (await store.getMessages(sessionId)) ?? []),
    setMessages: (sessionId, messages) =>
      call("setMessages", sessionId, `Could not replace the history of session "${sessionId}"`, () =>
        store.setMessages(sessionId, messages),
      ),
    clearMessages: (sessionId) =>
      call("clearMessages", sessionId, `Could not clear session "${sessionId}"`, () => {
        reports.forget(sessionId);
        return store.clearMessages(sessionId);
      }),
    appendMessages: async (sessionId, messages) => {
      if (messages.length === 0) return;
      await call(
        "appendMessages",
        sessionId,
        `Could not store ${messages.length} message(s) of session "${sessionId}"`,
        async () => {
          if (capabilities.appendMessages) return await store.appendMessages!(sessionId, messages);
          const existing = (await store.getMessages(sessionId)) ?? [];
          const ids = new Set(existing.map((message) => message.id).filter((id) => id !== undefined));
          const fresh = messages.filter((message) => message.id === undefined || !ids.has(message.id));
          await store.setMessages(sessionId, [...existing, ...fresh]);
        },
      );
    },
    deleteMessagesFrom: (sessionId, messageId) => adapter.replaceMessagesFrom(sessionId, messageId, []),
    replaceMessagesFrom: async (sessionId, messageId, messages) => {
      const describe = `Could not delete the messages of session "${sessionId}" from "${messageId}"`;
      const operation = "deleteMessagesFrom";
      if (replaceAtomically && messages.length > 0)
        return await call(operation, sessionId, describe, () => replaceAtomically(sessionId, messageId, messages));
      if (capabilities.deleteMessagesFrom) {
        await call(operation, sessionId, describe, () => store.deleteMessagesFrom!(sessionId, messageId));
        return await adapter.appendMessages(sessionId, messages);
      }
      await call(operation, sessionId, describe, async () => {
        const existing = (await store.getMessages(sessionId)) ?? [];
        const at = cutIndex(existing, messageId);
        if (at === -1) throw new MessageNotFoundError({ sessionId, messageId });
        const kept = existing.slice(0, at);
        const keptIds = idsOf(kept);
        const fresh = messages.filter((message) => message.id === undefined || !keptIds.has(message.id));
        await store.setMessages(sessionId, [...kept, ...fresh]);
        const local = localSummaries.get(sessionId);
        if (local) localSummaries.set(sessionId, summariesAfterCut(local, at, idsOf(existing.slice(at))));
      });
    },
    getMessageTail: (sessionId, limit) =>
      call("getMessageTail", sessionId, reading(sessionId), async () => {
        if (capabilities.getMessageTail) return await store.getMessageTail!(sessionId, limit);
        const messages = (await store.getMessages(sessionId)) ?? [];
        return { messages: limit > 0 ? messages.slice(-Math.floor(limit)) : [], total: messages.length };
      }),
    getFacts: (scopeId, sessionId) =>
      call("getFacts", sessionOfScope(scopeId, sessionId), `Could not read the facts of "${scopeId}"`, () =>
        facts.get(scopeId),
      ),
    setFact: (scopeId, fact, sessionId) =>
      call(
        "setFact",
        sessionOfScope(scopeId, sessionId),
        `Could not store the fact "${fact.key}" of "${scopeId}"`,
        () => facts.set(scopeId, fact, sessionId),
      ),
    deleteFact: (scopeId, key, sessionId) =>
      call("deleteFact", sessionOfScope(scopeId, sessionId), `Could not delete the fact "${key}" of "${scopeId}"`, () =>
        facts.delete(scopeId, key, sessionId),
      ),
    getSummaries: async (sessionId, options) => {
      const count = summaryCount(options, "MemoryStore");
      if (!capabilities.summaries) return newestSummaries(localSummaries.get(sessionId) ?? [], count);
      // A store written before `last` existed returns every summary: keep the newest.
      const read =
        count === Infinity
          ? () => store.getSummaries!(sessionId)
          : () => store.getSummaries!(sessionId, { last: count });
      return newestSummaries(
        (await call("getSummaries", sessionId, `Could not read the summaries of session "${sessionId}"`, read)) ?? [],
        count,
      );
    },
    saveSummary: async (sessionId, record) => {
      if (capabilities.summaries) {
        return await call("saveSummary", sessionId, `Could not save a summary of session "${sessionId}"`, () =>
          store.saveSummary!(sessionId, record),
        );
      }
      const records = localSummaries.get(sessionId) ?? [];
      if (!records.some((existing) => existing.id === record.id)) localSummaries.set(sessionId, [...records, record]);
    },
    lockSession: async (sessionId, options) => {
      if (!capabilities.lockSession) return undefined;
      const locking = call("lockSession", sessionId, `Could not lock session "${sessionId}"`, () =>
        store.lockSession!(sessionId, options),
      );
      return await lockUnlessAborted(locking, (release) => release, options, sessionId);
    },
    openTurn: (sessionId, options) => openStoreTurn(turnCalls, sessionId, options),
    exclusive: async (sessionId, task) => {
      const release = await writes.acquire(sessionId, "queue");
      try {
        return await task();
      } finally {
        release();
      }
    },
    getSession: async (sessionId) =>
      capabilities.getSession
        ? await call("getSession", sessionId, `Could not read the metadata of session "${sessionId}"`, () =>
            store.getSession!(sessionId),
          )
        : undefined,
    updateSession: async (sessionId, metadata) => {
      if (capabilities.updateSession) {
        await call("updateSession", sessionId, `Could not record the metadata of session "${sessionId}"`, () =>
          store.updateSession!(sessionId, metadata),
        );
      }
    },
    entries: async () => {
      if (!capabilities.entries) throw unsupported("entries");
      return await call("entries", undefined, "Could not list the sessions", () => store.entries!());
    },
    prune: async (options) => {
      if (!capabilities.prune) throw unsupported("prune");
      return await call("prune", undefined, "Could not prune sessions", () => store.prune!(options));
    },
    factScopes: async () => {
      if (!capabilities.factScopes) throw unsupported("factScopes");
      return await call("factScopes", undefined, "Could not list the fact scopes", () => store.factScopes!());
    },
    saveContextReport: reports.save,
    getContextReports: reports.get,
  } satisfies AdaptedStore);
  const storedTail = storedTailOf(store);
  const appending = (sessionId: string, messages: AgentMessage[]) =>
    `Could not store ${messages.length} message(s) of session "${sessionId}"`;
  const turnCalls: TurnCalls = {
    lockSession: adapter.lockSession,
    getMessages: adapter.getMessages,
    getMessageTail: adapter.getMessageTail,
    ...(storedTail
      ? {
          getStoredTail: (sessionId, limit) =>
            call(limit === undefined ? "getMessages" : "getMessageTail", sessionId, reading(sessionId), () =>
              storedTail(sessionId, limit),
            ),
        }
      : {}),
    appendMessages: adapter.appendMessages,
    replaceMessagesFrom: adapter.replaceMessagesFrom,
    readsTail: capabilities.getMessageTail,
    ...(folding
      ? {
          folded: {
            lockSessionReadingTail: (sessionId, options, limit) =>
              lockUnlessAborted(
                call("lockSession", sessionId, `Could not lock session "${sessionId}"`, () =>
                  folding.lockSessionReadingTail(sessionId, options, limit),
                ),
                (taken) => taken.release,
                options,
                sessionId,
              ),
            appendMessagesAndUnlock: async (sessionId, messages) => {
              await call("appendMessages", sessionId, appending(sessionId, messages), () =>
                folding.appendMessagesAndUnlock(sessionId, messages),
              );
            },
            ...(folding.appendMessagesDeferringSync && folding.syncAppends
              ? {
                  appendMessagesDeferringSync: (sessionId: string, messages: AgentMessage[]) =>
                    call("appendMessages", sessionId, appending(sessionId, messages), () =>
                      folding.appendMessagesDeferringSync!(sessionId, messages),
                    ),
                  syncAppends: (sessionId: string) =>
                    call("appendMessages", sessionId, `Could not sync the messages of session "${sessionId}"`, () =>
                      folding.syncAppends!(sessionId),
                    ),
                }
              : {}),
          },
        }
      : {}),
  };
  return adapter;
}
