import { expect } from "./vitest-api";
import type { Fact, MemoryStore } from "../stores/memory-store";

// The two fact shapes of MemoryStore, as the store conformance suite (test-memory-store.ts) tests them.

/** The rich fact methods (`Fact[]`). */
export interface RichFacts {
  getFacts(scopeId: string): Promise<Fact[]>;
  setFact(scopeId: string, fact: Fact): Promise<void>;
  deleteFact(scopeId: string, key: string): Promise<boolean | void>;
}

/** The AgentCore document's fact methods (key → value). */
export interface KeyValueFacts {
  getFacts(sessionId: string): Promise<Record<string, string>>;
  setFact(sessionId: string, key: string, value: string): Promise<void>;
  deleteFact(sessionId: string, key: string): Promise<boolean | void>;
}

/** Whether the store keeps facts the AgentCore document's way: what it returns for a scope without facts. */
export async function isKeyValueStore(store: MemoryStore, emptyScope: string): Promise<boolean> {
  const empty = await store.getFacts(emptyScope);
  if (Array.isArray(empty)) {
    expect(empty).toEqual([]);
    return false;
  }
  expect({ ...empty }).toEqual({});
  return true;
}
