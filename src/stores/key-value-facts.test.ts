// Stores written with the AgentCore document's fact methods (key → value): the adapter reads and
// writes them in their shape, and the conformance suite accepts them.
import { describe, expect, it } from "vitest";
import { Agent } from "../agent/agent";
import { StoreError } from "../errors/store-error";
import { MockLanguageModel } from "../testing/mock-language-model";
import { testMemoryStore } from "../testing/test-memory-store";
import { factScopeId } from "./fact-scope";
import { InMemoryStore } from "./in-memory-store";
import type { Fact, MemoryStore } from "./memory-store";
import { KeyValueStore } from "./__fixtures__/key-value-store";
import { sixMethodStore } from "./__fixtures__/six-method-store";
import { factStoreKey } from "./fallback-facts";
import { backendOf } from "./backend-of";

const fact = (key: string, value: string): Fact => ({ key, value, createdAt: 5, updatedAt: 6, messageId: "m1" });

testMemoryStore("a key → value store (the AgentCore document's shape)", () => new KeyValueStore());

describe("the AgentCore document's fact methods", () => {
  it("stores a session's facts under the bare session id, and a user's under user:<id>", async () => {
    const store = new KeyValueStore();
    const adapted = backendOf(store);
    await adapted.setFact(factScopeId("session", { sessionId: "s1" }), fact("language", "TypeScript"));
    await adapted.setFact(factScopeId("user", { sessionId: "s1", userId: "u1" }), fact("city", "Oslo"));
    expect(Object.fromEntries(store.facts.get("s1")!)).toEqual({ language: "TypeScript" });
    expect(Object.fromEntries(store.facts.get("user:u1")!)).toEqual({ city: "Oslo" });
    expect(await adapted.getFacts("session:s1")).toEqual([
      { key: "language", value: "TypeScript", createdAt: 0, updatedAt: 0 },
    ]);
    await adapted.deleteFact("session:s1", "language");
    expect(await adapted.getFacts("session:s1")).toEqual([]);
    expect(await adapted.getFacts("user:u1")).toHaveLength(1);
  });

  it("maps scope ids one-to-one: no session id reaches a user's facts", () => {
    expect(factStoreKey("record", "session:abc")).toBe("abc");
    expect(factStoreKey("record", "user:42")).toBe("user:42");
    expect(factStoreKey("record", "session:user:42")).toBe("session:user:42");
    expect(factStoreKey("record", "session:session:x")).toBe("session:session:x");
    expect(factStoreKey("rich", "session:abc")).toBe("session:abc");
    const scopes = ["session:a", "session:user:a", "user:a", "session:session:a", "session:session:user:a"];
    expect(new Set(scopes.map((scope) => factStoreKey("record", scope))).size).toBe(scopes.length);
  });

  it("keeps the rich shape for stores that have it, timestamps and message ids included", async () => {
    const store = sixMethodStore();
    await backendOf(store).setFact("session:s1", fact("language", "TypeScript"));
    expect(store.facts.get("session:s1")).toEqual([fact("language", "TypeScript")]);
    expect(await backendOf(store).getFacts("session:s1")).toEqual([fact("language", "TypeScript")]);
    const builtIn = new InMemoryStore();
    await backendOf(builtIn).setFact("session:s1", fact("k", "v"));
    expect(await builtIn.getFacts("session:s1")).toEqual([fact("k", "v")]);
  });

  it("tells the shape by what getFacts returns when setFact declares no parameters (a wrapper)", async () => {
    const inner = new KeyValueStore();
    const wrapper: MemoryStore = {
      getMessages: (id) => inner.getMessages(id),
      setMessages: (id, messages) => inner.setMessages(id, messages),
      clearMessages: (id) => inner.clearMessages(id),
      getFacts: (...args: [string]) => inner.getFacts(...args),
      setFact: (...args: unknown[]) => inner.setFact(...(args as [string, string, string])),
      deleteFact: (...args: [string, string]) => inner.deleteFact(...args),
    };
    expect(wrapper.setFact.length).toBe(0);
    await backendOf(wrapper).setFact("session:s1", fact("language", "Go"));
    expect(Object.fromEntries(inner.facts.get("s1")!)).toEqual({ language: "Go" });
  });

  it("corrects a guess the first read contradicts, and refuses getFacts answers of another kind", async () => {
    // Declares two parameters (a default value) but keeps key → value facts.
    class TwoParameterStore extends KeyValueStore {
      override async setFact(sessionId: string, key: string, value = ""): Promise<void> {
        await super.setFact(sessionId, key, value);
      }
    }
    const store = new TwoParameterStore();
    await store.setFact("s1", "seen", "yes");
    const adapted = backendOf(store);
    expect(await adapted.getFacts("session:s1")).toEqual([{ key: "seen", value: "yes", createdAt: 0, updatedAt: 0 }]);
    await adapted.setFact("session:s1", fact("more", "too"));
    expect(await store.getFacts("s1")).toEqual({ seen: "yes", more: "too" });

    // A rich store whose setFact declares three parameters, written to before any read.
    class ThreeParameterRichStore extends InMemoryStore {
      override async setFact(scopeId: string, fact: Fact, _options?: unknown): Promise<void> {
        await super.setFact(scopeId, fact);
      }
    }
    const rich = new ThreeParameterRichStore();
    expect(rich.setFact.length).toBe(3);
    await backendOf(rich).setFact("session:s1", fact("k", "v"));
    expect(await rich.getFacts("session:s1")).toEqual([fact("k", "v")]);

    const odd = { ...sixMethodStore(), getFacts: async () => "nope" } as unknown as MemoryStore;
    const error = await backendOf(odd)
      .getFacts("session:s1")
      .catch((thrown: unknown) => thrown);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/must return Fact\[\] or a key → value record/);
  });

  it("reads values a client parsed as JSON back as text", async () => {
    const store = new KeyValueStore();
    store.getFacts = async () => ({ age: 42, tags: ["a"], gone: null }) as unknown as Record<string, string>;
    expect(await backendOf(store).getFacts("session:s")).toEqual([
      { key: "age", value: "42", createdAt: 0, updatedAt: 0 },
      { key: "tags", value: '["a"]', createdAt: 0, updatedAt: 0 },
    ]);
  });

  it("lets the memory tools remember, recall and forget in such a store (they answered 'facts.find is not a function' before)", async () => {
    const store = new KeyValueStore();
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ name: "remember_fact", arguments: { key: "Pet", value: "a cat" } }] },
        { text: "Noted." },
        { toolCalls: [{ name: "recall_fact", arguments: {} }] },
        { text: "A cat." },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, sessionId: "s1" });
    const results: unknown[] = [];
    agent.on("tool:result", (event) => results.push(event.result));
    await agent.run("I have a cat.");
    await agent.run("What pet do I have?");
    expect(results).toEqual(["Remembered: pet = a cat", JSON.stringify([{ key: "pet", value: "a cat" }])]);
    expect(await store.getFacts("s1")).toEqual({ pet: "a cat" });
    expect(model.calls[2]!.system).toContain('"pet": "a cat"');
  });
});
