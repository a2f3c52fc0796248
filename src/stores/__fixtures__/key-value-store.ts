import type { AgentMessage } from "../../messages/agent-message";
import { copyMessages } from "../../messages/copy-messages";
import type { MemoryStore } from "../memory-store";

/**
 * A custom store with the AgentCore document's six methods (facts as key → value, like its
 * RedisMemoryStore example), backed by Maps the test can look into. `getFacts` answers `{}` for
 * an unknown id, as the document's `?? {}` does.
 */
export class KeyValueStore implements MemoryStore {
  readonly messages = new Map<string, AgentMessage[]>();
  readonly facts = new Map<string, Map<string, string>>();

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    return copyMessages(this.messages.get(sessionId) ?? []);
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    this.messages.set(sessionId, copyMessages(messages));
  }

  async clearMessages(sessionId: string): Promise<void> {
    this.messages.delete(sessionId);
    this.facts.delete(sessionId);
  }

  async getFacts(sessionId: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.facts.get(sessionId) ?? []);
  }

  async setFact(sessionId: string, key: string, value: string): Promise<void> {
    const facts = this.facts.get(sessionId) ?? new Map<string, string>();
    facts.set(key, value);
    this.facts.set(sessionId, facts);
  }

  async deleteFact(sessionId: string, key: string): Promise<void> {
    this.facts.get(sessionId)?.delete(key);
  }
}
