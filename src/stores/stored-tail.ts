import type { MemoryStore, MessageTail } from "./memory-store";

/**
 * A store's tail read for the run's own parse (internal, not exported): the store's own message
 * objects, in a new array, without the copy its `getMessageTail` makes. Only `parseSessionHistory`
 * reads them, and it rebuilds or copies every message before anything else sees it (parsing is a
 * copy for the common messages, so the store's copy would be thrown away at once). Undefined when
 * the store cannot answer so (a subclass with its own `getMessageTail`): the run then reads
 * `getMessageTail`.
 */
export const readStoredTail: unique symbol = Symbol("agentcore.readStoredTail");

/** A store that has {@link readStoredTail} (`InMemoryStore`). */
export interface StoredTailReader {
  [readStoredTail](sessionId: string, limit: number): MessageTail | undefined;
}

/**
 * The run's tail read on a store with {@link readStoredTail}: its own objects, marked `stored`,
 * or its `getMessageTail` when it cannot give them. Undefined for any other store.
 */
export function storedTailOf(
  store: MemoryStore,
): ((sessionId: string, limit: number) => Promise<MessageTail & { stored?: true }>) | undefined {
  const read = (store as Partial<StoredTailReader>)[readStoredTail];
  if (typeof read !== "function" || typeof store.getMessageTail !== "function") return undefined;
  return async (sessionId, limit) => {
    const tail = read.call(store, sessionId, limit);
    return tail ? { ...tail, stored: true } : await store.getMessageTail!(sessionId, limit);
  };
}
