import { describe, expect, it, vi } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { decodeStoredMessages, encodeStoredMessages } from "../messages/stored-encoding";
import { expectFactScopes } from "./__fixtures__/expect-fact-scopes";
import { testMemoryStore } from "../testing/test-memory-store";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { InMemoryStore } from "./in-memory-store";
import { backendOf } from "./backend-of";
import type { Fact, MemoryStore } from "./memory-store";

testMemoryStore("InMemoryStore", () => new InMemoryStore(), { requireCapabilities: "all" });
testMemoryStore("InMemoryStore (bounded)", () => new InMemoryStore({ maxSessions: 10_000, ttlMs: 60_000 }), {
  requireCapabilities: "all",
});

/**
 * A custom store written as a plain object with only the six required methods, keeping messages as
 * JSON text in the stored encoding (bytes and URLs of content parts survive), as docs/stores.md says.
 */
function sixMethodStore(): MemoryStore {
  const sessions = new Map<string, string>();
  const facts = new Map<string, Map<string, string>>();
  return {
    async getMessages(sessionId) {
      return decodeStoredMessages(JSON.parse(sessions.get(sessionId) ?? "[]") as AgentMessage[]);
    },
    async setMessages(sessionId, messages) {
      sessions.set(sessionId, JSON.stringify(encodeStoredMessages(messages)));
    },
    async clearMessages(sessionId) {
      sessions.delete(sessionId);
    },
    async getFacts(scopeId) {
      return [...(facts.get(scopeId)?.values() ?? [])].map((value) => JSON.parse(value) as Fact);
    },
    async setFact(scopeId, fact: Fact) {
      if (!facts.has(scopeId)) facts.set(scopeId, new Map());
      facts.get(scopeId)!.set(fact.key, JSON.stringify(fact));
    },
    async deleteFact(scopeId, key) {
      return facts.get(scopeId)?.delete(key) ?? false;
    },
  };
}

testMemoryStore("a custom store with only the six methods (object literal)", sixMethodStore);

describe("InMemoryStore bounds", () => {
  it("refuses unknown options, naming the right one", () => {
    expect(() => new InMemoryStore({ max: 10 } as never)).toThrow(/no option "max": use "maxSessions"/);
    expect(() => new InMemoryStore({ maxSession: 10 } as never)).toThrow(
      /no option "maxSession". Its options are: maxSessions, ttlMs/,
    );
    expect(() => new InMemoryStore({ maxSessions: 10, ttlMs: undefined })).not.toThrow();
  });

  it("refuses the old ttl option, saying it is now ttlMs in milliseconds", () => {
    let thrown: unknown;
    try {
      new InMemoryStore({ ttl: 3600 } as never);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ argument: "ttl", value: 3600 });
    expect((thrown as Error).message).toMatch(/renamed to "ttlMs", in milliseconds/);
  });

  it("lists the scopes that hold facts", async () => {
    await expectFactScopes(new InMemoryStore());
  });

  it("evicts the least recently used session past maxSessions", async () => {
    const store = new InMemoryStore({ maxSessions: 2 });
    await store.appendMessages("a", [{ id: "1", role: "user", content: "a" }]);
    await store.appendMessages("b", [{ id: "1", role: "user", content: "b" }]);
    await store.getMessages("a"); // a is now more recent than b
    await store.appendMessages("c", [{ id: "1", role: "user", content: "c" }]);
    expect((await store.entries()).map((entry) => entry.sessionId).sort()).toEqual(["a", "c"]);
    expect(await store.getMessages("b")).toEqual([]);
    expect(await store.getMessages("a")).toHaveLength(1);
  });

  it("forgets sessions idle longer than ttlMs", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const store = new InMemoryStore({ ttlMs: 1_000 });
      await store.appendMessages("a", [{ id: "1", role: "user", content: "a" }]);
      await store.setFact("a", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
      vi.setSystemTime(1_000_900);
      expect(await store.getMessages("a")).toHaveLength(1); // a read keeps it alive
      vi.setSystemTime(1_001_800);
      expect(await store.getFacts("a")).toHaveLength(1);
      vi.setSystemTime(1_003_000);
      expect(await store.getMessages("a")).toEqual([]);
      expect(await store.getFacts("a")).toEqual([]);
      expect(await store.entries()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects bad bounds", () => {
    expect(() => new InMemoryStore({ maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => new InMemoryStore({ ttlMs: -1 })).toThrow(/ttlMs/);
  });

  it("rejects invalid session ids in one place", async () => {
    const store = new InMemoryStore();
    await expect(store.getMessages("")).rejects.toThrow(/sessionId/);
    await expect(store.appendMessages("a\nb", [])).rejects.toThrow(/control/);
    await expect(store.getFacts("x".repeat(300))).rejects.toThrow(/scopeId/);
  });
});

describe("InMemoryStore threads", () => {
  const usage = {
    inputTokens: 5,
    outputTokens: 1,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    totalTokens: 6,
    modelCalls: 1,
    cost: 0.5,
  };

  it("sums a user's days from the one holding since, and reads any since, even past a Date's range", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1, 23, 0) });
    try {
      const store = new InMemoryStore();
      const backend = backendOf(store);
      await backend.claimSession("s", "ada");
      await store.appendMessages("s", [{ id: "1", role: "user", content: "day one" }], { usage });
      vi.setSystemTime(Date.UTC(2026, 0, 2, 1, 0));
      await store.appendMessages("s", [{ id: "2", role: "user", content: "day two" }], { usage });
      expect((await store.getUsage({ userId: "ada", since: Date.UTC(2026, 0, 1, 23, 59) })).modelCalls).toBe(2);
      expect((await store.getUsage({ userId: "ada", since: Date.UTC(2026, 0, 2, 0, 30) })).modelCalls).toBe(1);
      expect((await store.getUsage({ userId: "ada", since: 1e20 })).modelCalls).toBe(0);
      expect((await store.getUsage({ userId: "ada", since: -1e20 })).modelCalls).toBe(2);
      expect((await store.getUsage({ userId: "ada" })).cost).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses usage that is not totals, storing nothing", async () => {
    const store = new InMemoryStore();
    await expect(
      store.appendMessages("s", [{ id: "1", role: "user", content: "x" }], { usage: { ...usage, inputTokens: -1 } }),
    ).rejects.toSatisfy((error: unknown) => InvalidArgumentError.isInstance(error));
    expect(await store.getMessages("s")).toEqual([]);
  });

  it("deletes a user's data from a bounded store, expired fact scopes included", async () => {
    const store = new InMemoryStore({ maxSessions: 100, ttlMs: 60_000 });
    const backend = backendOf(store);
    await backend.claimSession("s1", "ada");
    await store.appendMessages("s1", [{ id: "1", role: "user", content: "x" }], { usage });
    await store.setFact("session:s1", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
    await backend.claimSession("s2", "bob");
    await store.appendMessages("s2", [{ id: "1", role: "user", content: "y" }]);
    expect(await store.deleteUserData("ada")).toEqual({ sessions: 1, messages: 1, facts: 1 });
    expect(await store.factScopes()).toEqual([]);
    expect((await store.entries()).map((entry) => entry.sessionId)).toEqual(["s2"]);
    await expect(store.deleteUserData("")).rejects.toSatisfy((error: unknown) =>
      InvalidArgumentError.isInstance(error),
    );
  });
});
