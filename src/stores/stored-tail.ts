import type { MemoryStore, MessageTail } from "./memory-store";

/**
 * A store's read for the run's own parse (internal, not exported): its last `limit` messages, or
 * its whole history without a limit, as the store's own message objects in a new array, without
 * the copy its `getMessageTail` / `getMessages` makes. Only `parseSessionHistory` reads them, and
 * it rebuilds or copies every message before anything else sees it (parsing is a copy for the
 * common messages, so the store's copy would be thrown away at once). Undefined when the store
 * cannot answer so (a subclass with its own `getMessageTail` / `getMessages`): the run then reads
 * through that method.
 */
export const readStoredTail: unique symbol = Symbol("agentcore.readStoredTail");

/** A store that has {@link readStoredTail} (`InMemoryStore`). */
export interface StoredTailReader {
  [readStoredTail](sessionId: string, limit: number | undefined): MessageTail | undefined;
}

/**
 * The run's read on a store with {@link readStoredTail}: its own objects, marked `stored`, or its
 * `getMessageTail` (with a limit) / `getMessages` (without) when it cannot give them. Undefined
 * for any other store.
 */
export function storedTailOf(
  store: MemoryStore,
): ((sessionId: string, limit: number | undefined) => Promise<MessageTail & { stored?: true }>) | undefined {
  const read = (store as Partial<StoredTailReader>)[readStoredTail];
  if (typeof read !== "function" || typeof store.getMessageTail !== "function") return undefined;
  return async (sessionId, limit) => {
    const tail = read.call(store, sessionId, limit);
    if (tail) return { ...tail, stored: true };
    if (limit !== undefined) return await store.getMessageTail!(sessionId, limit);
    const messages = (await store.getMessages(sessionId)) ?? [];
    return { messages, total: Array.isArray(messages) ? messages.length : 0 };
  };
}
