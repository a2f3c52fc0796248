// The events an agent run emits, with their payloads and in order, and listeners that throw.
import { describe, expect, it, vi } from "vitest";
import { Agent, streamDescribedRun } from "./agent";
import type { AgentMessage } from "../messages/agent-message";
import { InMemoryStore } from "../stores/in-memory-store";
import { SlidingWindowMemory } from "../strategies/sliding-window";
import { MockLanguageModel } from "../testing/mock-language-model";
import type { AgentEventMap, AgentEventName } from "./agent-events";
import { weather } from "./__fixtures__/run-fixtures";

describe("Agent events", () => {
  it("emits every event with its payload, in order", async () => {
    const model = new MockLanguageModel({
      responses: [
        {
          toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Paris" } }],
          usage: { inputTokens: 5, outputTokens: 1 },
        },
        { text: "Sunny." },
      ],
    });
    const agent = new Agent({ name: "assistant", model, tools: { get_weather: weather }, sessionId: "events" });
    const seen: { name: AgentEventName; event: AgentEventMap[AgentEventName] }[] = [];
    const names: AgentEventName[] = [
      "run:start",
      "run:end",
      "step:start",
      "step:end",
      "tool:call",
      "tool:result",
      "memory:read",
      "memory:write",
      "memory:error",
      "context:trimmed",
    ];
    for (const name of names) agent.on(name, (event) => seen.push({ name, event }));
    await agent.run({ input: "Weather in Paris?", userId: "u1" });
    expect(seen.map((entry) => entry.name)).toEqual([
      "run:start",
      "memory:read",
      "memory:write",
      "step:start",
      "tool:call",
      "tool:result",
      "step:end",
      "step:start",
      "step:end",
      "memory:write",
      "run:end",
    ]);
    for (const { event } of seen) {
      expect(event.sessionId).toBe("events");
      expect(event.agentName).toBe("assistant");
      expect(event.runId).toBe(seen[0]!.event.runId);
    }
    expect(seen[0]!.event).toMatchObject({ input: "Weather in Paris?", userId: "u1" });
    expect(seen[4]!.event).toMatchObject({
      step: 1,
      toolCall: { id: "c1", name: "get_weather", arguments: { city: "Paris" } },
    });
    expect(seen[5]!.event).toMatchObject({
      toolCallId: "c1",
      toolName: "get_weather",
      isError: false,
      result: { city: "Paris", temperature: "22°C" },
    });
    expect((seen[9]!.event as AgentEventMap["memory:write"]).messages.map((message) => message.role)).toEqual([
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(seen[10]!.event).toMatchObject({
      text: "Sunny.",
      steps: 2,
      finishReason: "stop",
      usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 },
    });
  });

  it("memory:write names what the store kept: a user message it skipped (its id held beyond the tail read) is told once, under its new id", async () => {
    const store = new InMemoryStore();
    // A long session whose first message has the id a client reuses; the window reads only a tail.
    const old: AgentMessage[] = Array.from({ length: 40 }, (_, index) => ({
      id: index === 0 ? "msg-1" : `old-${index}`,
      role: index % 2 === 0 ? "user" : "assistant",
      content: `old ${index}`,
      timestamp: index,
    }));
    await store.setMessages("reused", old);
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const agent = new Agent({ model, memoryStore: store, memory: new SlidingWindowMemory({ maxTurns: 1 }) });
    const read: number[] = [];
    const told: { messageIds: string[]; messages: AgentMessage[] }[] = [];
    agent.on("memory:read", (event) => read.push(event.messageCount));
    agent.on("memory:write", ({ messageIds, messages }) => told.push({ messageIds, messages }));
    // The caller's id (useChat's): one the store holds further back, then a new one.
    for (const user of ["msg-1", "msg-new"])
      await streamDescribedRun(agent, {
        options: { input: `again ${user}`, sessionId: "reused" },
        messageIds: { user },
      }).response;
    expect(read.every((count) => count < old.length)).toBe(true);
    const added = (await store.getMessages("reused")).slice(old.length);
    expect(added.map((message) => [message.role, message.content])).toEqual([
      ["user", "again msg-1"],
      ["assistant", "answer 0"],
      ["user", "again msg-new"],
      ["assistant", "answer 1"],
    ]);
    expect(added[0]!.id).not.toBe("msg-1");
    expect(added[2]!.id).toBe("msg-new");
    // One event per append that stored something, each naming exactly the messages stored.
    expect(told).toEqual(added.map((message) => ({ messageIds: [message.id], messages: [message] })));
  });

  it("never lets a throwing listener break a run", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const agent = new Agent({ model: new MockLanguageModel({ responses: [{ text: "fine" }] }) });
    agent.on("run:start", () => {
      throw new Error("listener bug");
    });
    agent.on("step:end", async () => {
      throw new Error("async listener bug");
    });
    const result = await agent.run("hi");
    expect(result.text).toBe("fine");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toHaveBeenCalledTimes(2);
    errors.mockRestore();
  });
});
