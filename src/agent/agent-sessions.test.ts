// An agent's sessions: what a second run sees, isolation between sessions and agents, the sessionId
// option, a store with only the six methods, and runs queued or rejected on a busy session.
import { describe, expect, it } from "vitest";
import { Agent } from "./agent";
import { InMemoryStore } from "../stores/in-memory-store";
import { sixMethodStore } from "../stores/__fixtures__/six-method-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { SessionBusyError } from "../errors/session-busy-error";
import { weather, withoutMeta } from "./__fixtures__/run-fixtures";

describe("Agent sessions", () => {
  it("lets a second run of the same session see the first", async () => {
    const model = new MockLanguageModel({
      responses: [{ text: "Noted: TypeScript." }, { text: "You prefer TypeScript." }],
    });
    const agent = new Agent({ model });
    await agent.run("I prefer TypeScript.");
    await agent.run("What do I prefer?");
    expect(withoutMeta(model.calls[1]!.messages)).toEqual([
      { role: "user", content: "I prefer TypeScript." },
      { role: "assistant", content: "Noted: TypeScript." },
      { role: "user", content: "What do I prefer?" },
    ]);
  });

  it("never lets two sessions, or two agent instances, see each other", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({ model, memoryStore: store });
    await agent.run({ input: "secret of alice", sessionId: "alice" });
    await agent.run({ input: "hello from bob", sessionId: "bob" });
    expect(model.calls[1]!.messages.map((message) => message.content)).toEqual(["hello from bob"]);

    const first = new Agent({ model, memoryStore: store });
    const second = new Agent({ model, memoryStore: store });
    expect(first.sessionId).not.toBe(second.sessionId);
    await first.run("first instance");
    await second.run("second instance");
    expect(model.calls.at(-1)!.messages.map((message) => message.content)).toEqual(["second instance"]);
  });

  it("uses the agent's sessionId option by default and validates ids", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({ model, memoryStore: store, sessionId: "user-42" });
    await agent.run("hi");
    expect(await store.getMessages("user-42")).toHaveLength(2);
    await expect(agent.run({ input: "x", sessionId: "bad\nid" })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(agent.run({ input: "x", sessionId: "a".repeat(300) })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
    await expect(agent.run("   ")).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });

  it("works with a custom store that has only the six methods", async () => {
    const store = sixMethodStore();
    const data = store.sessions;
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "w", name: "get_weather", arguments: { city: "Lima" } }] },
        { text: "warm" },
        { text: "again" },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, tools: { get_weather: weather }, sessionId: "custom" });
    await agent.run("weather in Lima");
    await agent.run("and again?");
    expect(data.get("custom")).toHaveLength(6);
    expect(model.calls[2]!.messages).toHaveLength(5);
  });

  it("queues a second run on a busy session, or rejects it when asked to", async () => {
    let open!: () => void;
    const gate = { promise: new Promise<void>((resolve) => (open = resolve)), resolve: () => open() };
    const model = new MockLanguageModel({
      responses: async (_call, index) => {
        if (index === 0) await gate.promise;
        return { text: `answer ${index}` };
      },
    });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "busy" });
    const first = agent.run("first");
    const second = agent.run("second");
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.resolve();
    await Promise.all([first, second]);
    expect((await store.getMessages("busy")).map((message) => message.content)).toEqual([
      "first",
      "answer 0",
      "second",
      "answer 1",
    ]);

    const rejecting = new Agent({
      model: new MockLanguageModel({
        responses: async () => new Promise((resolve) => setTimeout(() => resolve({ text: "slow" }), 30)),
      }),
      concurrency: "reject",
      sessionId: "busy",
    });
    const running = rejecting.run("one");
    await expect(rejecting.run("two")).rejects.toSatisfy(SessionBusyError.isInstance);
    await running;
  });
});
