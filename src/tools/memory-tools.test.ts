import { describe, expect, it } from "vitest";
import { Agent } from "../agent/agent";
import type { AgentEventMap } from "../agent/agent-events";
import { InMemoryStore } from "../stores/in-memory-store";
import type { Fact, MemoryStore } from "../stores/memory-store";
import { MockLanguageModel, type MockResponse } from "../testing/mock-language-model";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { normalizeFactKey } from "./memory-tools";
import { hasLoneSurrogate } from "../messages/session-id";
import { tool } from "./tool";
import { z } from "zod";

function call(name: string, args: object, id = `${name}-${Math.random().toString(36).slice(2, 8)}`): MockResponse {
  return { toolCalls: [{ id, name, arguments: args }] };
}

const lastToolResult = (model: MockLanguageModel, callIndex: number) =>
  model.calls[callIndex]!.messages.at(-1)!.content as string;

describe("memory tools", () => {
  it("remembers a fact and shows it in the system prompt of the next turn", async () => {
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "Preferred Language", value: "TypeScript" }),
        { text: "Noted." },
        { text: "Here is a TypeScript example." },
      ],
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      enableMemoryTools: true,
      systemPrompt: "Be helpful.",
      sessionId: "s1",
    });
    const writes: AgentMetaWrite[] = [];
    agent.on("memory:write", (event) => writes.push(event));
    const first = await agent.run("Remember that I prefer TypeScript.");
    expect(model.calls[0]!.tools.map((tool) => tool.name)).toEqual(["remember_fact", "recall_fact", "forget_fact"]);
    expect(lastToolResult(model, 1)).toBe("Remembered: preferred_language = TypeScript");

    await agent.run("Show me a hello world.");
    const system = model.calls[2]!.system!;
    expect(system.startsWith("Be helpful.\n\n<user_facts>\n")).toBe(true);
    expect(system).toContain('- "preferred_language": "TypeScript"');

    const facts = await store.getFacts("session:s1");
    expect(facts).toHaveLength(1);
    const userMessageId = (await store.getMessages("s1"))[0]!.id;
    expect(facts[0]).toMatchObject({ key: "preferred_language", value: "TypeScript", messageId: userMessageId });
    expect(writes.find((event) => event.fact)).toMatchObject({
      // Told through the run's notifier, as every other event: the run's ids.
      runId: first.runId,
      sessionId: "s1",
      fact: { action: "set", key: "preferred_language", value: "TypeScript" },
    });
  });

  it("updates, recalls and forgets, and each change is visible in memory:write", async () => {
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "theme", value: "dark mode" }),
        call("remember_fact", { key: "THEME ", value: "light mode" }),
        call("recall_fact", { key: "theme" }),
        call("recall_fact", {}),
        call("recall_fact", { key: "nope" }),
        call("forget_fact", { key: "theme" }),
        call("forget_fact", { key: "theme" }),
        { text: "done" },
        { text: "next turn" },
      ],
    });
    const agent = new Agent({ model, enableMemoryTools: true, maxSteps: 10 });
    const changes: NonNullable<AgentMetaWrite["fact"]>[] = [];
    agent.on("memory:write", (event) => event.fact && changes.push(event.fact));
    await agent.run("go");
    expect(lastToolResult(model, 2)).toBe("Updated: theme = light mode (was: dark mode)");
    expect(JSON.parse(lastToolResult(model, 3))).toMatchObject({ key: "theme", value: "light mode" });
    expect(JSON.parse(lastToolResult(model, 4))).toHaveLength(1);
    expect(lastToolResult(model, 5)).toBe('No fact named "nope". Known keys: theme.');
    expect(lastToolResult(model, 6)).toBe("Forgotten: theme");
    expect(lastToolResult(model, 7)).toBe('Nothing deleted: no fact named "theme". No facts are saved.');
    expect(changes.map((change) => [change.action, change.key, change.value, change.previousValue])).toEqual([
      ["set", "theme", "dark mode", undefined],
      ["set", "theme", "light mode", "dark mode"],
      ["delete", "theme", undefined, "light mode"],
    ]);
    // Within the turn, the facts block follows the changes; after forget it is gone.
    expect(model.calls[1]!.system).toContain('"theme": "dark mode"');
    expect(model.calls[2]!.system).toContain('"theme": "light mode"');
    await agent.run("later");
    expect(model.calls[8]!.system ?? "").not.toContain("<user_facts>");
  });

  it("answers the model when a bound is crossed, and stores nothing over a bound", async () => {
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "k".repeat(65), value: "v" }),
        call("remember_fact", { key: "bad key!", value: "v" }),
        call("remember_fact", { key: "big", value: "x".repeat(101) }),
        call("remember_fact", { key: "a", value: "1" }),
        call("remember_fact", { key: "b", value: "2" }),
        call("remember_fact", { key: "c", value: "3" }),
        call("remember_fact", { key: "a", value: "updated" }),
        call("remember_fact", { key: "empty", value: "   " }),
        call("remember_fact", { key: 42 }),
        { text: "ok" },
      ],
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      enableMemoryTools: true,
      maxSteps: 10,
      sessionId: "bounds",
      factLimits: { maxFacts: 2, maxValueLength: 100 },
    });
    await agent.run("go");
    expect(lastToolResult(model, 1)).toMatch(/^Not saved: The key is 65 characters long; the limit is 64/);
    expect(lastToolResult(model, 2)).toMatch(/^Not saved: The key "bad_key!" may only contain/);
    expect(lastToolResult(model, 3)).toMatch(
      /^Not saved: the value for "big" is 101 characters long; the limit is 100/,
    );
    expect(lastToolResult(model, 6)).toMatch(/^Not saved: 2 facts are already stored, the limit is 2/);
    expect(lastToolResult(model, 7)).toBe("Updated: a = updated (was: 1)");
    expect(lastToolResult(model, 8)).toMatch(/is empty/);
    expect(lastToolResult(model, 9)).toMatch(/^Error: Invalid arguments for tool "remember_fact"/);
    const facts = await store.getFacts("session:bounds");
    expect(facts.map((fact) => [fact.key, fact.value]).sort()).toEqual([
      ["a", "updated"],
      ["b", "2"],
    ]);
  });

  it("keeps the fact count bound under parallel calls in one step", async () => {
    const toolCalls = Array.from({ length: 20 }, (_, index) => ({
      id: `p${index}`,
      name: "remember_fact",
      arguments: { key: `k${index}`, value: "v" },
    }));
    const model = new MockLanguageModel({ responses: [{ toolCalls }, { text: "ok" }] });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      enableMemoryTools: true,
      sessionId: "par",
      factLimits: { maxFacts: 5 },
    });
    await agent.run("go");
    expect(await store.getFacts("session:par")).toHaveLength(5);
  });

  it("keeps user-scoped facts with the user across sessions, and never crosses users", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "name", value: "Ada" }),
        { text: "Hi Ada" },
        { text: "a" },
        { text: "b" },
        { text: "c" },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, factScope: "user" });
    await agent.run({ input: "I am Ada", sessionId: "thread-1", userId: "ada" });
    await agent.run({ input: "new thread", sessionId: "thread-2", userId: "ada" });
    expect(model.calls[2]!.system).toContain('"name": "Ada"');
    await agent.run({ input: "I am Bob", sessionId: "thread-3", userId: "bob" });
    expect(model.calls[3]!.system ?? "").not.toContain("Ada");
    // A session named like the user's scope does not see the user's facts either.
    const sessionScoped = new Agent({ model, memoryStore: store, enableMemoryTools: true });
    await sessionScoped.run({ input: "who am I?", sessionId: "user:ada" });
    expect(model.calls[4]!.system ?? "").not.toContain("Ada");
    await expect(agent.run({ input: "no user", sessionId: "thread-4" })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
  });

  it("works on a store with only the six methods", async () => {
    const facts = new Map<string, Map<string, Fact>>();
    const messages = new Map<string, unknown[]>();
    const store: MemoryStore = {
      getMessages: async (id) => structuredClone((messages.get(id) ?? []) as never),
      setMessages: async (id, list) => void messages.set(id, structuredClone(list)),
      clearMessages: async (id) => void messages.delete(id),
      getFacts: async (scope) => [...(facts.get(scope)?.values() ?? [])],
      setFact: async (scope, fact: Fact) =>
        void (facts.get(scope) ?? facts.set(scope, new Map()).get(scope)!).set(fact.key, fact),
      deleteFact: async (scope, key) => facts.get(scope)?.delete(key) ?? false,
    };
    const model = new MockLanguageModel({
      responses: [call("remember_fact", { key: "city", value: "Lisbon" }), { text: "ok" }, { text: "ok" }],
    });
    const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, sessionId: "six" });
    await agent.run("I live in Lisbon");
    await agent.run("weather?");
    expect(model.calls[2]!.system).toContain('"city": "Lisbon"');
  });

  it("refuses a user tool that takes a memory tool's name", () => {
    const model = new MockLanguageModel({ responses: [] });
    const remember_fact = tool({ parameters: z.object({}), execute: () => "mine" });
    expect(() => new Agent({ model, enableMemoryTools: true, tools: { remember_fact } })).toThrow(
      /taken by the memory tools/,
    );
  });
});

describe("normalizeFactKey", () => {
  it("trims, case-folds and joins whitespace", () => {
    expect(normalizeFactKey("  Favourite   Colour ")).toEqual({ key: "favourite_colour" });
    expect(normalizeFactKey("ＡＢＣ")).toEqual({ key: "abc" });
    expect(normalizeFactKey("")).toHaveProperty("error");
    expect(normalizeFactKey("a<b")).toHaveProperty("error");
  });
});

type AgentMetaWrite = AgentEventMap["memory:write"];

describe("memory tools and lone surrogates", () => {
  it("refuses a key or a value with a lone surrogate with a well-formed tool result the model can act on", async () => {
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "k\ud800", value: "one" }),
        call("remember_fact", { key: "k", value: "bad \udfff value" }),
        call("recall_fact", { key: "k\ud800" }),
        call("forget_fact", { key: "k\ud800" }),
        { text: "done" },
      ],
    });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, sessionId: "s" });
    await agent.run("go");
    const results = [1, 2, 3, 4].map((index) => lastToolResult(model, index));
    expect(results[0]).toMatch(/^Not saved: The key contains a lone surrogate/);
    expect(results[1]).toMatch(/^Not saved: the value for "k" contains a lone surrogate/);
    expect(results[2]).toMatch(/^No such fact: The key contains a lone surrogate/);
    expect(results[3]).toMatch(/lone surrogate/);
    for (const result of results) expect(hasLoneSurrogate(result)).toBe(false);
    expect(await store.getFacts("session:s")).toEqual([]);
    expect(normalizeFactKey("k\ufffd")).toHaveProperty("error");
  });
});
