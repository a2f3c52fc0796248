// The backend of a built-in store (docs/architecture.md, "The store backend"): its public methods
// and its fast paths (`BuiltInStoreParts`), with no capability probing. What a user's subclass
// overrides or adds is served by the fallback backend, as a user's store's would be.
import { SessionOwnershipError } from "../errors/session-ownership-error";
import type { AgentMessage } from "../messages/agent-message";
import { backendOf } from "./backend-of";
import type { BuiltInStoreParts } from "./built-in-store-parts";
import { checkContextReport, contextReportCount } from "./context-report";
import { fallbackBackend } from "./fallback-backend";
import { guardStreamLog } from "./guard-stream-log";
import { inProcessStreamLog } from "./in-process-stream-log";
import { sessionOfScope } from "./fallback-facts";
import type { Fact, MemoryStore } from "./memory-store";
import { openStoreTurn, type TurnCalls } from "./open-turn";
import { SessionQueue } from "./session-queue";
import type { StoreBackend, StoreCapabilities } from "./store-backend";
import { exclusiveOn, lockUnlessAborted, readingHistory, storeCall, storeName, takeStoreLock } from "./store-call";
import { newestSummaries, summaryCount } from "./summary-count";
import { threadCalls } from "./threads-fallback";
import type { AppendOptions } from "./usage-totals";
import { inProcessStopSignals } from "./stop-signals";

/** The `MemoryStore` methods a subclass may override or add. */
const METHODS = [
  "getMessages",
  "setMessages",
  "clearMessages",
  "getFacts",
  "setFact",
  "deleteFact",
  "appendMessages",
  "deleteMessagesFrom",
  "getMessageTail",
  "getSession",
  "updateSession",
  "entries",
  "listSessions",
  "prune",
  "getSummaries",
  "saveSummary",
  "lockSession",
  "factScopes",
  "saveContextReport",
  "getContextReports",
  "getMessageRange",
  "getUsage",
  "deleteUserData",
] as const satisfies readonly (keyof MemoryStore)[];

const partsOf = new WeakMap<StoreBackend, BuiltInStoreParts>();

/** A built-in store's backend: made by the store itself (its `storeBackend` method), once per store (`backendOf`). */
export function builtInBackend(store: MemoryStore, parts: BuiltInStoreParts): StoreBackend {
  const name = storeName(store);
  const call = storeCall(name);
  const prototype = parts.prototype as Partial<Record<keyof MemoryStore, unknown>>;
  /** The method is the built-in class's own (not a subclass's override or addition). */
  const own = (method: keyof MemoryStore) => store[method] === prototype[method];
  const subclassed = METHODS.some((method) => !own(method));
  /** The fallback backend of the same store, for what a subclass changed. */
  let fallback: StoreBackend | undefined;
  const fallbackOf = () => (fallback ??= fallbackBackend(store));
  const locks = parts.locks ?? true;
  const capabilities: Readonly<StoreCapabilities> = subclassed
    ? fallbackOf().capabilities
    : Object.freeze({
        appendMessages: true,
        deleteMessagesFrom: true,
        getMessageTail: true,
        summaries: true,
        lockSession: locks,
        getSession: true,
        updateSession: true,
        entries: true,
        prune: true,
        factScopes: true,
        contextReports: true,
        listSessions: true,
        getMessageRange: true,
        usage: true,
        deleteUserData: true,
      });
  const ownFactReads = own("getFacts");
  const ownFactWrites = own("setFact") && own("deleteFact");
  const ownLock = own("lockSession");
  const writes = new SessionQueue();
  const appending = (sessionId: string, messages: AgentMessage[]) =>
    `Could not store ${messages.length} message(s) of session "${sessionId}"`;

  const backend: StoreBackend = Object.freeze({
    store,
    name,
    capabilities,
    stopSignals: parts.stopSignals ?? inProcessStopSignals(store),
    getMessages: (sessionId) =>
      call("getMessages", sessionId, readingHistory(sessionId), async () => (await store.getMessages(sessionId)) ?? []),
    setMessages: (sessionId, messages) =>
      call("setMessages", sessionId, `Could not replace the history of session "${sessionId}"`, () =>
        store.setMessages(sessionId, messages),
      ),
    clearMessages: (sessionId) =>
      call("clearMessages", sessionId, `Could not clear session "${sessionId}"`, () => store.clearMessages(sessionId)),
    appendMessages: async (sessionId, messages, options) => {
      if (messages.length === 0) return;
      await call("appendMessages", sessionId, appending(sessionId, messages), () =>
        options ? store.appendMessages!(sessionId, messages, options) : store.appendMessages!(sessionId, messages),
      );
    },
    getMessageTail: (sessionId, limit) =>
      call("getMessageTail", sessionId, readingHistory(sessionId), () => store.getMessageTail!(sessionId, limit)),
    deleteMessagesFrom: (sessionId, messageId) => backend.replaceMessagesFrom(sessionId, messageId, []),
    replaceMessagesFrom: async (sessionId, messageId, messages, options) => {
      const describe = `Could not delete the messages of session "${sessionId}" from "${messageId}"`;
      const replace = parts.replaceFrom;
      if (replace && messages.length > 0)
        return await call("deleteMessagesFrom", sessionId, describe, () =>
          replace(sessionId, messageId, messages, options),
        );
      await call("deleteMessagesFrom", sessionId, describe, () => store.deleteMessagesFrom!(sessionId, messageId));
      await backend.appendMessages(sessionId, messages, options);
    },
    getFacts: (scopeId, sessionId) =>
      ownFactReads
        ? call(
            "getFacts",
            sessionOfScope(scopeId, sessionId),
            `Could not read the facts of "${scopeId}"`,
            async () => ((await store.getFacts(scopeId)) as Fact[] | undefined) ?? [],
          )
        : fallbackOf().getFacts(scopeId, sessionId),
    setFact: async (scopeId, fact, sessionId) => {
      if (!ownFactWrites) return await fallbackOf().setFact(scopeId, fact, sessionId);
      const fenced = parts.facts;
      await call(
        "setFact",
        sessionOfScope(scopeId, sessionId),
        `Could not store the fact "${fact.key}" of "${scopeId}"`,
        () =>
          fenced && sessionId !== undefined ? fenced.setFact(scopeId, fact, sessionId) : store.setFact(scopeId, fact),
      );
    },
    deleteFact: async (scopeId, key, sessionId) => {
      if (!ownFactWrites) return await fallbackOf().deleteFact(scopeId, key, sessionId);
      const fenced = parts.facts;
      await call(
        "deleteFact",
        sessionOfScope(scopeId, sessionId),
        `Could not delete the fact "${key}" of "${scopeId}"`,
        () =>
          fenced && sessionId !== undefined
            ? fenced.deleteFact(scopeId, key, sessionId)
            : store.deleteFact(scopeId, key),
      );
    },
    factScopes: () => call("factScopes", undefined, "Could not list the fact scopes", () => store.factScopes!()),
    getSummaries: async (sessionId, options) => {
      const count = summaryCount(options, "MemoryStore");
      const read =
        count === Infinity
          ? () => store.getSummaries!(sessionId)
          : () => store.getSummaries!(sessionId, { last: count });
      // A subclass may return every summary: keep the newest.
      return newestSummaries(
        (await call("getSummaries", sessionId, `Could not read the summaries of session "${sessionId}"`, read)) ?? [],
        count,
      );
    },
    saveSummary: (sessionId, record) =>
      call("saveSummary", sessionId, `Could not save a summary of session "${sessionId}"`, () =>
        store.saveSummary!(sessionId, record),
      ),
    saveContextReport: async (sessionId, report) => {
      checkContextReport(sessionId, report, name);
      await call("saveContextReport", sessionId, `Could not save a context report of session "${sessionId}"`, () =>
        store.saveContextReport!(sessionId, report),
      );
    },
    getContextReports: async (sessionId, options) => {
      const count = contextReportCount(options, name);
      const read = () =>
        count === Infinity ? store.getContextReports!(sessionId) : store.getContextReports!(sessionId, { last: count });
      const reports = await call(
        "getContextReports",
        sessionId,
        `Could not read the context reports of session "${sessionId}"`,
        read,
      );
      return newestSummaries(reports ?? [], count);
    },
    lockSession: async (sessionId, options) => {
      if (!ownLock) return await fallbackOf().lockSession(sessionId, options);
      if (!locks) return undefined;
      return await takeStoreLock(store, call, sessionId, options);
    },
    openTurn: (sessionId, options) => openStoreTurn(turnCalls, sessionId, options),
    exclusive: (sessionId, task) => exclusiveOn(writes, sessionId, task),
    getSession: (sessionId) =>
      call("getSession", sessionId, `Could not read the metadata of session "${sessionId}"`, () =>
        store.getSession!(sessionId),
      ),
    updateSession: (sessionId, metadata) =>
      call("updateSession", sessionId, `Could not record the metadata of session "${sessionId}"`, () =>
        store.updateSession!(sessionId, metadata),
      ),
    entries: () => call("entries", undefined, "Could not list the sessions", () => store.entries!()),
    claimSession: async (sessionId, userId) => {
      const claim = parts.claimSession;
      if (!claim) return await fallbackOf().claimSession(sessionId, userId);
      const owner = await call("claimSession", sessionId, `Could not read the owner of session "${sessionId}"`, () =>
        claim(sessionId, userId),
      );
      if (owner !== undefined && owner !== userId) throw new SessionOwnershipError({ sessionId, userId });
    },
    listSessions: (options) =>
      own("listSessions")
        ? call("listSessions", undefined, "Could not list the sessions of a user", () => store.listSessions!(options))
        : fallbackOf().listSessions(options),
    prune: (options) => call("prune", undefined, "Could not prune sessions", () => store.prune!(options)),
    ...threadCalls(
      store,
      name,
      call,
      capabilities,
      { getSession: (sessionId) => store.getSession!(sessionId) },
      parts.titleSession,
    ),
    streamLog: guardStreamLog(
      typeof parts.streamLog === "object" ? parts.streamLog : inProcessStreamLog(parts.streamLog),
      call,
    ),
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
  const storedTail = parts.storedTail;
  if (storedTail) {
    turnCalls.getStoredTail = (sessionId, limit) =>
      call(limit === undefined ? "getMessages" : "getMessageTail", sessionId, readingHistory(sessionId), async () => {
        if (limit !== undefined) {
          // A subclass that reads its own way is read through its method.
          if (own("getMessageTail")) return { ...storedTail(sessionId, limit), stored: true as const };
          return await store.getMessageTail!(sessionId, limit);
        }
        if (own("getMessages")) return { ...storedTail(sessionId, undefined), stored: true as const };
        const messages = (await store.getMessages(sessionId)) ?? [];
        return { messages, total: Array.isArray(messages) ? messages.length : 0 };
      });
  }
  const folding = ownLock && locks ? parts.folding : undefined;
  if (folding) {
    turnCalls.folded = {
      lockSessionReadingTail: (sessionId, options, limit) =>
        lockUnlessAborted(
          call("lockSession", sessionId, `Could not lock session "${sessionId}"`, () =>
            folding.lockSessionReadingTail(sessionId, options, limit),
          ),
          (taken) => taken.release,
          options,
          sessionId,
        ),
      appendMessagesAndUnlock: async (sessionId, messages, options) => {
        await call("appendMessages", sessionId, appending(sessionId, messages), () =>
          folding.appendMessagesAndUnlock(sessionId, messages, options),
        );
      },
      ...(folding.appendMessagesDeferringSync && folding.syncAppends
        ? {
            appendMessagesDeferringSync: (sessionId: string, messages: AgentMessage[], options?: AppendOptions) =>
              call("appendMessages", sessionId, appending(sessionId, messages), () =>
                folding.appendMessagesDeferringSync!(sessionId, messages, options),
              ),
            syncAppends: (sessionId: string) =>
              call("appendMessages", sessionId, `Could not sync the messages of session "${sessionId}"`, () =>
                folding.syncAppends!(sessionId),
              ),
          }
        : {}),
    };
  }
  partsOf.set(backend, parts);
  return backend;
}

/** A built-in store's parts, through its backend (tests reach the fast paths this way); undefined for a user's store. */
export function builtInPartsOf(store: MemoryStore): BuiltInStoreParts | undefined {
  return partsOf.get(backendOf(store));
}
