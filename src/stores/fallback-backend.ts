// The backend of a user's store (a `MemoryStore` with the six required methods and any optional
// ones): the one place that looks at which optional methods a store has, tells its two fact shapes
// apart and answers what it lacks (docs/architecture.md, "The store backend").
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { SessionOwnershipError } from "../errors/session-ownership-error";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";
import type { MemoryStore, SummaryRecord } from "./memory-store";
import { fallbackFacts, sessionOfScope } from "./fallback-facts";
import { fallbackReports } from "./fallback-reports";
import { guardStreamLog } from "./guard-stream-log";
import { inProcessStreamLog } from "./in-process-stream-log";
import { cutIndex, idsOf, summariesAfterCut } from "./history-cut";
import { openStoreTurn, type TurnCalls } from "./open-turn";
import { SessionQueue } from "./session-queue";
import type { StoreBackend, StoreCapabilities } from "./store-backend";
import { exclusiveOn, readingHistory, storeCall, storeName, takeStoreLock, unsupportedCall } from "./store-call";
import { newestSummaries, summaryCount } from "./summary-count";
import { threadCalls } from "./threads-fallback";
import { inProcessStopSignals } from "./stop-signals";

/**
 * Wraps a user's store (made once per store by `backendOf`). Every optional method is used when
 * the store has it, else answered by a fallback: appends and cuts by read-modify-write skipping
 * stored ids (the caller holds the session), a tail by a full read sliced, summaries and context
 * reports kept in this process, no lock (the in-process queue only), no metadata. Facts in either
 * shape come back as `Fact[]`; fact writes are not fenced (the store has no lock the backend knows of).
 */
export function fallbackBackend(store: MemoryStore): StoreBackend {
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
    listSessions: has("listSessions"),
    getMessageRange: has("getMessageRange"),
    usage: has("getUsage"),
    deleteUserData: has("deleteUserData"),
  });
  const call = storeCall(name);
  /** Summaries of a store without getSummaries / saveSummary: lost on restart, which costs one summariser call, never a message. */
  const localSummaries = new Map<string, SummaryRecord[]>();
  const reports = fallbackReports(store, name, call, capabilities.contextReports);
  const facts = fallbackFacts(store);
  /** Read-modify-writes outside a run, one at a time per session (`exclusive`). */
  const writes = new SessionQueue();

  const backend: StoreBackend = Object.freeze({
    store,
    name,
    capabilities,
    stopSignals: inProcessStopSignals(store),
    getMessages: (sessionId) =>
      call("getMessages", sessionId, readingHistory(sessionId), async () => (await store.getMessages(sessionId)) ?? []),
    setMessages: (sessionId, messages) =>
      call("setMessages", sessionId, `Could not replace the history of session "${sessionId}"`, () =>
        store.setMessages(sessionId, messages),
      ),
    clearMessages: (sessionId) =>
      call("clearMessages", sessionId, `Could not clear session "${sessionId}"`, () => {
        reports.forget(sessionId);
        return store.clearMessages(sessionId);
      }),
    appendMessages: async (sessionId, messages, options) => {
      if (messages.length === 0) return;
      await call(
        "appendMessages",
        sessionId,
        `Could not store ${messages.length} message(s) of session "${sessionId}"`,
        async () => {
          if (capabilities.appendMessages)
            return await (options
              ? store.appendMessages!(sessionId, messages, options)
              : store.appendMessages!(sessionId, messages));
          const existing = (await store.getMessages(sessionId)) ?? [];
          const ids = new Set(existing.map((message) => message.id).filter((id) => id !== undefined));
          const fresh = messages.filter((message) => message.id === undefined || !ids.has(message.id));
          await store.setMessages(sessionId, [...existing, ...fresh]);
        },
      );
    },
    deleteMessagesFrom: (sessionId, messageId) => backend.replaceMessagesFrom(sessionId, messageId, []),
    replaceMessagesFrom: async (sessionId, messageId, messages, options) => {
      const describe = `Could not delete the messages of session "${sessionId}" from "${messageId}"`;
      const operation = "deleteMessagesFrom";
      if (capabilities.deleteMessagesFrom) {
        await call(operation, sessionId, describe, () => store.deleteMessagesFrom!(sessionId, messageId));
        return await backend.appendMessages(sessionId, messages, options);
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
      call("getMessageTail", sessionId, readingHistory(sessionId), async () => {
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
        () => facts.set(scopeId, fact),
      ),
    deleteFact: (scopeId, key, sessionId) =>
      call("deleteFact", sessionOfScope(scopeId, sessionId), `Could not delete the fact "${key}" of "${scopeId}"`, () =>
        facts.delete(scopeId, key),
      ),
    factScopes: async () => {
      if (!capabilities.factScopes) throw unsupportedCall(name, "factScopes");
      return await call("factScopes", undefined, "Could not list the fact scopes", () => store.factScopes!());
    },
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
    saveContextReport: reports.save,
    getContextReports: reports.get,
    lockSession: async (sessionId, options) => {
      if (!capabilities.lockSession) return undefined;
      return await takeStoreLock(store, call, sessionId, options);
    },
    openTurn: (sessionId, options) => openStoreTurn(turnCalls, sessionId, options),
    exclusive: (sessionId, task) => exclusiveOn(writes, sessionId, task),
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
      if (!capabilities.entries) throw unsupportedCall(name, "entries");
      return await call("entries", undefined, "Could not list the sessions", () => store.entries!());
    },
    claimSession: async (sessionId, userId) => {
      // Kept in the store's session metadata where it has it (read, then written: not atomic across
      // processes unless the store's lock covers the run); without getSession, sessions stay ownerless.
      if (!capabilities.getSession) return;
      const entry = await backend.getSession(sessionId);
      if (entry) {
        if (entry.userId !== undefined && entry.userId !== userId)
          throw new SessionOwnershipError({ sessionId, userId });
        return;
      }
      if (capabilities.updateSession) {
        await call("updateSession", sessionId, `Could not record the owner of session "${sessionId}"`, () =>
          store.updateSession!(sessionId, { userId }),
        );
      }
    },
    listSessions: async (options) => {
      if (!capabilities.listSessions) {
        throw new UnsupportedRuntimeError({
          feature: "listSessions",
          requirement: "a store with a listSessions method",
          message: `${name} has no listSessions method: it cannot list a user's sessions. Use a built-in store, or give your store listSessions({ userId, limit, cursor }) (docs/stores.md, "Listing a user's sessions").`,
        });
      }
      return await call("listSessions", undefined, "Could not list the sessions of a user", () =>
        store.listSessions!(options),
      );
    },
    prune: async (options) => {
      if (!capabilities.prune) throw unsupportedCall(name, "prune");
      return await call("prune", undefined, "Could not prune sessions", () => store.prune!(options));
    },
    ...threadCalls(store, name, call, capabilities, { getSession: (sessionId) => backend.getSession(sessionId) }),
    streamLog: guardStreamLog(inProcessStreamLog(), call),
  } satisfies StoreBackend);
  const turnCalls: TurnCalls = {
    lockSession: backend.lockSession,
    getMessages: backend.getMessages,
    getMessageTail: backend.getMessageTail,
    appendMessages: backend.appendMessages,
    replaceMessagesFrom: backend.replaceMessagesFrom,
    readsTail: capabilities.getMessageTail,
    claimSession: backend.claimSession,
  };
  return backend;
}
