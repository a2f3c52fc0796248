// Data and helpers of the store conformance suite (test-memory-store.ts and its optional-capability tests).
import type { AgentMessage } from "../messages/agent-message";
import type { Fact, MemoryStore, SummaryRecord } from "../stores/memory-store";

/** The optional methods of `MemoryStore`. */
export type OptionalStoreMethod = Exclude<
  keyof MemoryStore,
  "getMessages" | "setMessages" | "clearMessages" | "getFacts" | "setFact" | "deleteFact"
>;

/** A custom store with only the six methods has no atomic append: write with setMessages. */
export async function write(store: MemoryStore, id: string, messages: AgentMessage[]): Promise<void> {
  if (store.appendMessages) await store.appendMessages(id, messages);
  else await store.setMessages(id, [...(await store.getMessages(id)), ...messages]);
}

let counter = 0;
export function sessionId(): string {
  counter += 1;
  return `conformance-${globalThis.process?.pid ?? 0}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${counter}`;
}

export function message(content: string, id?: string, role: "user" | "assistant" = "user"): AgentMessage {
  return { ...(id === undefined ? {} : { id }), role, content, timestamp: 1_700_000_000_000 };
}

export function conversation(count: number, label = "message"): AgentMessage[] {
  return Array.from({ length: count }, (_, index) =>
    message(`${label} ${index}`, `${label}-${index}`, index % 2 === 0 ? "user" : "assistant"),
  );
}

export function fact(key: string, value: string, messageId?: string): Fact {
  return { key, value, createdAt: 1_000, updatedAt: 2_000, ...(messageId ? { messageId } : {}) };
}

export function sortFacts(facts: Fact[]): Fact[] {
  return [...facts].sort((a, b) => a.key.localeCompare(b.key));
}

export function summary(id: string, content: string, messageCount: number): SummaryRecord {
  return {
    id,
    content,
    fromMessageId: "message-0",
    toMessageId: `message-${messageCount - 1}`,
    messageCount,
    model: "mock/summariser",
    createdAt: 1_700_000_000_000,
    tokenCount: 12,
  };
}
