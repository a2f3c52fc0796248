import type { AgentMessage } from "../messages/agent-message";
import type { Fact, MemoryStore } from "./memory-store";
import { validateScopeId, validateSessionId } from "./session-id";

interface SessionRecord {
  messages: AgentMessage[];
  ids: Set<string>;
}

/**
 * Keeps sessions and facts in this process's memory. The default store: fast, and gone when the
 * process exits. Values are copied in and out, so callers can never change what is stored.
 */
export class InMemoryStore implements MemoryStore {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly facts = new Map<string, Map<string, Fact>>();

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    validateSessionId(sessionId);
    return structuredClone(this.sessions.get(sessionId)?.messages ?? []);
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    const copy = structuredClone(messages);
    this.sessions.set(sessionId, { messages: copy, ids: idsOf(copy) });
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateSessionId(sessionId);
    let record = this.sessions.get(sessionId);
    if (!record) {
      record = { messages: [], ids: new Set() };
      this.sessions.set(sessionId, record);
    }
    for (const message of structuredClone(messages)) {
      if (message.id !== undefined) {
        if (record.ids.has(message.id)) continue;
        record.ids.add(message.id);
      }
      record.messages.push(message);
    }
  }

  async clearMessages(sessionId: string): Promise<void> {
    validateSessionId(sessionId);
    this.sessions.delete(sessionId);
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    return structuredClone([...(this.facts.get(scopeId)?.values() ?? [])]);
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    validateScopeId(scopeId);
    let scope = this.facts.get(scopeId);
    if (!scope) {
      scope = new Map();
      this.facts.set(scopeId, scope);
    }
    scope.set(fact.key, structuredClone(fact));
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    validateScopeId(scopeId);
    const scope = this.facts.get(scopeId);
    const existed = scope?.delete(key) ?? false;
    if (scope && scope.size === 0) this.facts.delete(scopeId);
    return existed;
  }
}

function idsOf(messages: AgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) if (message.id !== undefined) ids.add(message.id);
  return ids;
}
