import { StoreError } from "../errors/store-error";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { parseAgentMessages, type AgentMessage } from "../messages/agent-message";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import type { MemoryStore } from "../stores/memory-store";

function storeName(store: MemoryStore): string {
  return store.constructor?.name && store.constructor.name !== "Object" ? store.constructor.name : "custom store";
}

/**
 * Reads a session's history for the model: parsed at the boundary (a bad record is a typed
 * error naming it), system messages left out (they are never part of stored history), and the
 * pairing rule restored for histories that arrive broken (a custom store, an old import).
 *
 * With `limit` (a strategy's `historyLimit`) and a store that has `getRecentMessages`, only the
 * last `limit` messages are read; a turn cut at the start of that tail is dropped, so the
 * history still begins with a user message.
 */
export async function loadSessionHistory(store: MemoryStore, sessionId: string, options: { limit?: number } = {}): Promise<AgentMessage[]> {
  const tail = options.limit !== undefined && options.limit > 0 && typeof store.getRecentMessages === "function";
  let raw: unknown;
  try {
    raw = tail ? await store.getRecentMessages!(sessionId, options.limit!) : await store.getMessages(sessionId);
  } catch (error) {
    throw new StoreError({
      store: storeName(store),
      operation: "getMessages",
      sessionId,
      message: `Could not read the history of session "${sessionId}" from the ${storeName(store)}: ${errorText(error)}`,
      cause: error,
    });
  }
  let messages: AgentMessage[];
  try {
    messages = parseAgentMessages(raw ?? [], { source: `The history of session "${sessionId}"` });
  } catch (error) {
    if (!InvalidMessageError.isInstance(error)) throw error;
    throw new StoreError({
      store: storeName(store),
      operation: "getMessages",
      sessionId,
      message: `The ${storeName(store)} returned a bad record for session "${sessionId}": ${error.message}`,
      cause: error,
    });
  }
  let history = messages.filter((message) => message.role !== "system");
  if (tail && (raw as unknown[]).length >= options.limit!) {
    const firstUser = history.findIndex((message) => message.role === "user");
    history = firstUser === -1 ? [] : history.slice(firstUser);
  }
  return repairToolPairing(history).messages;
}

/**
 * Appends messages to a session: atomically and idempotently with the store's `appendMessages`
 * when it has one, otherwise by read-modify-write (the caller holds the session's lock), skipping
 * ids already stored so a retry never duplicates.
 */
export async function appendSessionMessages(store: MemoryStore, sessionId: string, messages: AgentMessage[]): Promise<void> {
  if (messages.length === 0) return;
  try {
    if (typeof store.appendMessages === "function") {
      await store.appendMessages(sessionId, messages);
      return;
    }
    const existing = (await store.getMessages(sessionId)) ?? [];
    const ids = new Set(existing.map((message) => message.id).filter((id) => id !== undefined));
    const fresh = messages.filter((message) => message.id === undefined || !ids.has(message.id));
    await store.setMessages(sessionId, [...existing, ...fresh]);
  } catch (error) {
    throw new StoreError({
      store: storeName(store),
      operation: "appendMessages",
      sessionId,
      message: `Could not store ${messages.length} message(s) of session "${sessionId}" in the ${storeName(store)}: ${errorText(error)}`,
      cause: error,
    });
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
