// How `backendOf` finds a store's backend, and what a subclass of a built-in store changes in it
// (docs/architecture.md, "The store backend").
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { backendOf } from "./backend-of";
import { builtInBackend, builtInPartsOf } from "./built-in-backend";
import { InMemoryStore } from "./in-memory-store";
import type { Fact, SessionLockOptions } from "./memory-store";
import { sixMethodStore } from "./__fixtures__/six-method-store";

const message = (id: string): AgentMessage => ({ id, role: "user", content: id, timestamp: 1 });

describe("backendOf", () => {
  it("gives a built-in store its own backend, a user's store the fallback, each made once", () => {
    const builtIn = new InMemoryStore();
    const custom = sixMethodStore();
    expect(backendOf(builtIn)).toBe(backendOf(builtIn));
    expect(backendOf(custom)).toBe(backendOf(custom));
    expect(builtInPartsOf(builtIn)?.storedTail).toBeTypeOf("function");
    expect(builtInPartsOf(custom)).toBeUndefined();
    expect(backendOf(builtIn).capabilities).toMatchObject({ appendMessages: true, lockSession: false, entries: true });
    expect(backendOf(custom).capabilities).toMatchObject({ appendMessages: false, lockSession: false, entries: false });
  });

  it("serves what a subclass adds or overrides as a user's store's: its lock is taken, its fact writes called", async () => {
    const calls: string[] = [];
    class LockingStore extends InMemoryStore {
      async lockSession(sessionId: string, _options: SessionLockOptions): Promise<() => Promise<void>> {
        calls.push(`lock ${sessionId}`);
        return async () => {
          calls.push(`release ${sessionId}`);
        };
      }
      override async setFact(scopeId: string, fact: Fact): Promise<void> {
        calls.push(`setFact ${scopeId} ${fact.key}`);
        await super.setFact(scopeId, fact);
      }
    }
    const store = new LockingStore();
    const backend = backendOf(store);
    expect(backend.capabilities.lockSession).toBe(true);
    const turn = await backend.openTurn("s", { timeoutMs: 0, tailLimit: 4 });
    await turn.append([message("u")], { last: true });
    await turn.release();
    await backend.setFact("session:s", { key: "lang", value: "ts", createdAt: 1, updatedAt: 1 }, "s");
    expect(calls).toEqual(["lock s", "release s", "setFact session:s lang"]);
    expect((await store.getMessages("s")).map((stored) => stored.id)).toEqual(["u"]);
    expect((await backend.getFacts("session:s")).map((fact) => fact.value)).toEqual(["ts"]);
  });
});

describe("a built-in store's folded appends", () => {
  it("pass the turn's usage to the store's folded append (the agent's last append, and a deferred one)", async () => {
    const store = new InMemoryStore();
    const received: unknown[] = [];
    const usage = {
      inputTokens: 3,
      outputTokens: 2,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      totalTokens: 5,
      modelCalls: 1,
      cost: 0,
    };
    const backend = builtInBackend(store, {
      prototype: InMemoryStore.prototype,
      folding: {
        lockSessionReadingTail: async () => ({ release: async () => {} }),
        appendMessagesAndUnlock: async (sessionId, messages, options) => {
          received.push(["unlock", options]);
          await store.appendMessages(sessionId, messages, options);
          return true;
        },
        appendMessagesDeferringSync: async (sessionId, messages, options) => {
          received.push(["deferred", options]);
          await store.appendMessages(sessionId, messages, options);
        },
        syncAppends: async () => {},
      },
    });
    const turn = await backend.openTurn("s", { timeoutMs: 0, tailLimit: 4, releaseWithLast: true });
    await turn.append([message("u")], { usage });
    await turn.append([message("a")], { last: true, usage });
    await turn.release();
    expect(received).toEqual([
      ["deferred", { usage }],
      ["unlock", { usage }],
    ]);
    expect((await store.getUsage({ sessionId: "s" })).modelCalls).toBe(2);
  });
});
