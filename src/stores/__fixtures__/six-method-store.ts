import type { AgentMessage } from "../../messages/agent-message";
import { copyMessages } from "../../messages/copy-messages";
import type { Fact, MemoryStore } from "../memory-store";

/** A custom store with only the six required methods, its data open to the test. */
export function sixMethodStore(): MemoryStore & {
  sessions: Map<string, AgentMessage[]>;
  facts: Map<string, Fact[]>;
  writes: number;
} {
  const sessions = new Map<string, AgentMessage[]>();
  const facts = new Map<string, Fact[]>();
  return {
    sessions,
    facts,
    /** Calls of setMessages. */
    writes: 0,
    async getMessages(sessionId) {
      return copyMessages(sessions.get(sessionId) ?? []);
    },
    async setMessages(sessionId, messages) {
      this.writes++;
      sessions.set(sessionId, copyMessages(messages));
    },
    async clearMessages(sessionId) {
      sessions.delete(sessionId);
    },
    async getFacts(scopeId) {
      return facts.get(scopeId) ?? [];
    },
    async setFact(scopeId, fact: Fact) {
      facts.set(scopeId, [...(facts.get(scopeId) ?? []).filter((existing) => existing.key !== fact.key), fact]);
    },
    async deleteFact(scopeId, key) {
      facts.set(
        scopeId,
        (facts.get(scopeId) ?? []).filter((existing) => existing.key !== key),
      );
    },
  };
}
