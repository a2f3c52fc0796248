import { errorText } from "../errors/error-text";
import { AgentCoreError } from "../errors/agent-core-error";
import { StoreError } from "../errors/store-error";
import type { AgentMessage } from "../messages/agent-message";
import type { Fact, MemoryStore, MessageTail, SessionEntry, SummaryRecord } from "./memory-store";

/** Which optional capabilities a store has natively (the rest fall back, or are absent). */
export interface StoreCapabilities {
  /** Atomic, idempotent append. Fallback: read-modify-write skipping stored ids. */
  appendMessages: boolean;
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
}

/**
 * A store as the rest of agentcore uses it: every optional method answered (natively or by a
 * fallback), every failure a `StoreError` naming the store (typed agentcore errors such as
 * `SessionBusyError` or `CorruptStoreError` pass through unchanged). Get one with `adaptStore`.
 */
export interface AdaptedStore {
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
  /** The last `limit` messages and the session's size: the store's `getMessageTail`, or a full read sliced. */
  getMessageTail(sessionId: string, limit: number): Promise<MessageTail>;
  getFacts(scopeId: string): Promise<Fact[]>;
  setFact(scopeId: string, fact: Fact): Promise<void>;
  deleteFact(scopeId: string, key: string): Promise<void>;
  /** The summaries of a session, oldest first: the store's own, or those kept in this process. */
  getSummaries(sessionId: string): Promise<SummaryRecord[]>;
  /** Keeps a summary (idempotent by `record.id`): in the store, or in this process. */
  saveSummary(sessionId: string, record: SummaryRecord): Promise<void>;
  /** Takes the store's cross-process session lock; resolves to its release, or undefined when the store has none. */
  lockSession(sessionId: string, options: { timeoutMs: number }): Promise<(() => Promise<void>) | undefined>;
  /** Metadata of a session; undefined when unknown or when the store keeps none. */
  getSession(sessionId: string): Promise<SessionEntry | undefined>;
  /** Records metadata on a session; does nothing when the store keeps none. */
  updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void>;
  /** Every session with its metadata. Check `capabilities.entries` first: a `StoreError` when the store cannot list. */
  entries(): Promise<SessionEntry[]>;
  /** Deletes sessions not accessed since `olderThan`. Check `capabilities.prune` first: a `StoreError` when the store cannot prune. */
  prune(options: { olderThan: number }): Promise<string[]>;
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
    getMessageTail: has("getMessageTail"),
    summaries: has("getSummaries") && has("saveSummary"),
    lockSession: has("lockSession"),
    getSession: has("getSession"),
    updateSession: has("updateSession"),
    entries: has("entries"),
    prune: has("prune"),
  });
  /** Runs one store call; a failure that is not already a typed agentcore error becomes a StoreError. */
  const call = async <T>(operation: string, sessionId: string | undefined, describe: string, work: () => Promise<T>): Promise<T> => {
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

  return Object.freeze({
    store,
    name,
    capabilities,
    getMessages: (sessionId) =>
      call("getMessages", sessionId, `Could not read the history of session "${sessionId}"`, async () => (await store.getMessages(sessionId)) ?? []),
    setMessages: (sessionId, messages) =>
      call("setMessages", sessionId, `Could not replace the history of session "${sessionId}"`, () => store.setMessages(sessionId, messages)),
    clearMessages: (sessionId) =>
      call("clearMessages", sessionId, `Could not clear session "${sessionId}"`, () => store.clearMessages(sessionId)),
    appendMessages: async (sessionId, messages) => {
      if (messages.length === 0) return;
      await call("appendMessages", sessionId, `Could not store ${messages.length} message(s) of session "${sessionId}"`, async () => {
        if (capabilities.appendMessages) return await store.appendMessages!(sessionId, messages);
        const existing = (await store.getMessages(sessionId)) ?? [];
        const ids = new Set(existing.map((message) => message.id).filter((id) => id !== undefined));
        const fresh = messages.filter((message) => message.id === undefined || !ids.has(message.id));
        await store.setMessages(sessionId, [...existing, ...fresh]);
      });
    },
    getMessageTail: (sessionId, limit) =>
      call("getMessageTail", sessionId, `Could not read the history of session "${sessionId}"`, async () => {
        if (capabilities.getMessageTail) return await store.getMessageTail!(sessionId, limit);
        const messages = (await store.getMessages(sessionId)) ?? [];
        return { messages: limit > 0 ? messages.slice(-Math.floor(limit)) : [], total: messages.length };
      }),
    getFacts: (scopeId) => call("getFacts", undefined, `Could not read the facts of "${scopeId}"`, async () => (await store.getFacts(scopeId)) ?? []),
    setFact: (scopeId, fact) => call("setFact", undefined, `Could not store the fact "${fact.key}" of "${scopeId}"`, () => store.setFact(scopeId, fact)),
    deleteFact: (scopeId, key) =>
      call("deleteFact", undefined, `Could not delete the fact "${key}" of "${scopeId}"`, async () => {
        await store.deleteFact(scopeId, key);
      }),
    getSummaries: (sessionId) =>
      capabilities.summaries
        ? call("getSummaries", sessionId, `Could not read the summaries of session "${sessionId}"`, async () => (await store.getSummaries!(sessionId)) ?? [])
        : Promise.resolve(localSummaries.get(sessionId) ?? []),
    saveSummary: async (sessionId, record) => {
      if (capabilities.summaries) {
        return await call("saveSummary", sessionId, `Could not save a summary of session "${sessionId}"`, () => store.saveSummary!(sessionId, record));
      }
      const records = localSummaries.get(sessionId) ?? [];
      if (!records.some((existing) => existing.id === record.id)) localSummaries.set(sessionId, [...records, record]);
    },
    lockSession: async (sessionId, options) =>
      capabilities.lockSession ? await call("lockSession", sessionId, `Could not lock session "${sessionId}"`, () => store.lockSession!(sessionId, options)) : undefined,
    getSession: async (sessionId) =>
      capabilities.getSession ? await call("getSession", sessionId, `Could not read the metadata of session "${sessionId}"`, () => store.getSession!(sessionId)) : undefined,
    updateSession: async (sessionId, metadata) => {
      if (capabilities.updateSession) {
        await call("updateSession", sessionId, `Could not record the metadata of session "${sessionId}"`, () => store.updateSession!(sessionId, metadata));
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
  } satisfies AdaptedStore);
}
