// The AgentLIB "Memory" document's examples that build an agent with `createAgent(...).memory(...)`, run
// as written with the package name changed to `agentcore` (the model scripted; docs/agentlib-document.md).
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  BufferMemory,
  CompositeMemory,
  createAgent,
  SlidingWindowMemory,
  SummarizingMemory,
  type ModelMessage,
} from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { VectorMemory } from "./fixtures/custom-vector-memory";
import { RedisMemory } from "./fixtures/redis-memory";
import { conversation } from "./fixtures/conversation";

/** The model the document's agents run on here: answers "reply N" where N counts the messages it was sent. */
function scriptedModel() {
  return new MockLanguageModel({ responses: (call) => ({ text: `reply ${call.messages.length}` }) });
}
const contents = (messages: readonly { content: unknown }[]) => messages.map((message) => message.content);

describe("AgentLIB document: BufferMemory with an agent", () => {
  it("builds the agent as written, and with a model it remembers within a session", async () => {
    const memory = new BufferMemory({
      maxMessages: 40, // Keep the last 40 messages
      maxTokens: 8000, // Optional: trim to token budget
    });

    const agent = createAgent({ name: "assistant" }).memory(memory);
    // The document gives no model here; a run says so (pass `model` to createAgent).
    await expect(agent.run({ input: "Hello", sessionId: "user-1" })).rejects.toThrow(/no model/);

    const model = scriptedModel();
    const working = createAgent({ name: "assistant", model }).memory(memory);
    await working.run({ input: "Hi! My name is Alice.", sessionId: "user-123" });
    await working.run({ input: "What is my name?", sessionId: "user-123" });
    expect(contents(model.calls[1]!.messages)).toEqual(["Hi! My name is Alice.", "reply 1", "What is my name?"]);
    const [entry] = await memory.entries("user-123");
    expect(entry!.metadata.agentName).toBe("assistant");
    expect(entry!.messages).toHaveLength(4);
  });
});

describe("AgentLIB document: Memory Lifecycle", () => {
  it("reads before execution (history prepended to the messages) and writes after, with the document's events", async () => {
    const memory = new BufferMemory();
    const read = vi.spyOn(memory, "read");
    const write = vi.spyOn(memory, "write");
    const model = scriptedModel();
    const agent = createAgent({ name: "assistant", model, systemPrompt: "You are helpful." }).memory(memory);
    const events: string[] = [];
    agent.on("memory:read", ({ sessionId }) => events.push(`memory:read ${sessionId}`));
    agent.on("memory:write", ({ sessionId }) => events.push(`memory:write ${sessionId}`));

    await agent.run({ input: "First", sessionId: "s" });
    await agent.run({ input: "Second", sessionId: "s" });

    expect(read).toHaveBeenCalledWith(expect.objectContaining({ sessionId: "s" }));
    // Step 4: the history is prepended to this run's messages, the system prompt re-injected by the agent.
    expect(contents(model.calls[1]!.messages)).toEqual(["First", "reply 1", "Second"]);
    expect(model.calls[1]!.system).toBe("You are helpful.");
    // write(): all messages (history and this run's, tool calls included), the session id, the agent name.
    expect(contents(write.mock.calls[1]![0])).toEqual(["First", "reply 1", "Second", "reply 3"]);
    expect(write.mock.calls[1]![1]).toMatchObject({ sessionId: "s", agentName: "assistant" });
    expect(events).toEqual(["memory:read s", "memory:write s", "memory:read s", "memory:write s"]);
    // Stored once each, never a system message.
    expect(contents((await memory.entries("s"))[0]!.messages)).toEqual(["First", "reply 1", "Second", "reply 3"]);
  });

  it("stores a tool-calling turn whole", async () => {
    const { tool } = await import("agentcore");
    const { z } = await import("zod");
    const memory = new SlidingWindowMemory({ maxTokens: 4000, maxTurns: 30 });
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ name: "get_weather", arguments: { city: "Tokyo" } }] },
        { text: "It is sunny." },
        { text: "Yes." },
      ],
    });
    const get_weather = tool({
      description: "Weather of a city",
      parameters: z.object({ city: z.string() }),
      execute: async () => "sunny",
    });
    const agent = createAgent({ model, tools: { get_weather } }).memory(memory);
    await agent.run({ input: "Weather in Tokyo?", sessionId: "s" });
    await agent.run({ input: "Sure?", sessionId: "s" });
    expect(model.calls[2]!.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
  });
});

describe("AgentLIB document: Sessions", () => {
  it("runs the four session ID strategies", async () => {
    const model = scriptedModel();
    const agent = createAgent({ name: "assistant", model }).memory(new BufferMemory());
    const userId = "42";
    const threadId = "7";
    {
      // One conversation per user
      const sessionId = `user-${userId}`;

      await agent.run({ input: "Hello", sessionId });
      await agent.run({ input: "Follow-up question", sessionId });
      expect(contents(model.calls.at(-1)!.messages)).toEqual(["Hello", "reply 1", "Follow-up question"]);
    }
    {
      // Multiple conversations per user
      const sessionId = `user-${userId}-thread-${threadId}`;

      await agent.run({ input: "Start new topic", sessionId });
      expect(contents(model.calls.at(-1)!.messages)).toEqual(["Start new topic"]);
    }
    // No sessionId = random UUID per run = no memory between calls
    await agent.run({ input: "One-off question" });
    await agent.run({ input: "One-off question" });
    expect(contents(model.calls.at(-1)!.messages)).toEqual(["One-off question"]);
    {
      // Shared memory across all users (use with caution!)
      const sessionId = "global-knowledge-base";

      await agent.run({ input: "Add to shared context", sessionId });
      await agent.run({ input: "What is shared?", sessionId });
      expect(contents(model.calls.at(-1)!.messages)).toEqual(["Add to shared context", "reply 1", "What is shared?"]);
    }
  });
});

describe("AgentLIB document: Example: Tagged Memories", () => {
  it("builds the agent, listens to run:end, and writes tagged messages manually", async () => {
    const memory = new BufferMemory();
    const messages: ModelMessage[] = conversation(1);

    const agent = createAgent({ name: "support-agent" }).memory(memory);

    agent.on("run:end", async ({ state }) => {
      // Agent automatically writes, but you can add custom tags via middleware
    });

    // Or write manually
    await memory.write(messages, {
      sessionId: "user-123",
      agentName: "support-agent",
      tags: {
        resolved: "true",
        category: "billing",
        sentiment: "positive",
      },
    });
    expect((await memory.entries("user-123"))[0]!.metadata.tags).toEqual({
      resolved: "true",
      category: "billing",
      sentiment: "positive",
    });

    // With a model, run:end's state holds the conversation the agent wrote.
    const withModel = createAgent({ name: "support-agent", model: scriptedModel() }).memory(memory);
    let seen: ModelMessage[] = [];
    withModel.on("run:end", async ({ state }) => {
      seen = state.messages;
    });
    await withModel.run({ input: "Is my refund through?", sessionId: "user-123" });
    expect(contents(seen)).toEqual(["q0 question", "answer 0", "Is my refund through?", "reply 3"]);
    expect(await memory.read({ sessionId: "user-123", tags: { category: "billing" } })).toHaveLength(4);
  });
});

describe("AgentLIB document: Example: Redis Memory (real Redis)", () => {
  const run = randomUUID();
  const sessions: string[] = [];
  const memories: RedisMemory[] = [];
  afterAll(async () => {
    for (const memory of memories) {
      for (const sessionId of sessions) await memory.clear(sessionId);
      await (memory as unknown as { redis: { quit(): Promise<unknown> } }).redis.quit();
    }
  });

  it("becomes the agent's history: each turn is kept, across agents and processes' worth of connections", async () => {
    // Usage
    const memory = new RedisMemory("redis://localhost:6379");
    memories.push(memory);
    const model = scriptedModel();
    const agent = createAgent({ name: "assistant", model });
    agent.memory(memory);

    const sessionId = `agentlib-doc-${run}-user-1`;
    sessions.push(sessionId);
    await agent.run({ input: "My name is Alice.", sessionId });
    await agent.run({ input: "I live in Lisbon.", sessionId });
    await agent.run({ input: "Who am I?", sessionId });
    expect(contents(model.calls[2]!.messages)).toEqual([
      "My name is Alice.",
      "reply 1",
      "I live in Lisbon.",
      "reply 3",
      "Who am I?",
    ]);

    // Every write overwrites the key with the whole conversation: no turn is lost.
    const stored = await memory.read({ sessionId });
    expect(contents(stored)).toEqual([
      "My name is Alice.",
      "reply 1",
      "I live in Lisbon.",
      "reply 3",
      "Who am I?",
      "reply 5",
    ]);
    expect(contents(await memory.read({ sessionId, limit: 2 }))).toEqual(["Who am I?", "reply 5"]);

    // Another agent (another connection) continues the same conversation.
    const other = new RedisMemory("redis://localhost:6379");
    memories.push(other);
    const second = createAgent({ name: "assistant", model }).memory(other);
    await second.run({ input: "And where do I live?", sessionId });
    expect(contents(model.calls[3]!.messages).slice(0, 3)).toEqual([
      "My name is Alice.",
      "reply 1",
      "I live in Lisbon.",
    ]);

    // Sessions stay apart; clear(sessionId) forgets one.
    const bob = `agentlib-doc-${run}-user-2`;
    sessions.push(bob);
    await agent.run({ input: "I am Bob.", sessionId: bob });
    expect(contents(model.calls.at(-1)!.messages)).toEqual(["I am Bob."]);
    await memory.clear(bob);
    expect(await memory.read({ sessionId: bob })).toEqual([]);
  });
});

describe("AgentLIB document: CompositeMemory and SummarizingMemory as an agent's memory", () => {
  it("CompositeMemory: the buffer's conversation is the history, the vector memory's context is data in the prompt", async () => {
    const memory = new CompositeMemory({
      providers: [
        new BufferMemory({ maxMessages: 20 }), // Recent conversation
        new VectorMemory({ topK: 5, threshold: 0.7 }), // Relevant past context
      ],
      mergeStrategy: "interleave", // or 'concat' or 'priority'
    });
    const model = scriptedModel();
    const agent = createAgent({ model }).memory(memory);
    await agent.run({ input: "pricing of the pro plan?", sessionId: "s" });
    await agent.run({ input: "and the team plan?", sessionId: "s" });
    const call = model.calls[1]!;
    expect(contents(call.messages)).toEqual(["pricing of the pro plan?", "reply 1", "and the team plan?"]);
    expect(call.system).toContain("Relevant: pricing of the pro plan?");
  });

  it("SummarizingMemory: older turns reach the model as a summary, recent ones verbatim", async () => {
    const summaryModel = new MockLanguageModel({ responses: () => ({ text: "The user is Alice and likes tea." }) });
    const memory = new SummarizingMemory({ recentMessages: 2, summaryModel, summarizeEvery: 2, maxSummaryTokens: 500 });
    const model = scriptedModel();
    const agent = createAgent({ model }).memory(memory);
    for (const input of ["I am Alice.", "I like tea.", "And cake.", "What do I like?"])
      await agent.run({ input, sessionId: "s" });
    const last = model.calls.at(-1)!;
    expect(last.system).toContain("The user is Alice and likes tea.");
    expect(last.messages.at(-1)!.content).toBe("What do I like?");
    expect(last.messages.length).toBeLessThan(7);
  });
});

describe("AgentLIB document: Clear stale sessions, with an agent", () => {
  it("forgets sessions the agent has not touched for 7 days", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date", "setInterval", "clearInterval"] });
    try {
      const memory = new BufferMemory();
      const model = scriptedModel();
      const agent = createAgent({ name: "assistant", model }).memory(memory);
      await agent.run({ input: "Old question", sessionId: "user-old" });
      vi.setSystemTime(new Date("2026-01-10T00:00:00Z"));
      await agent.run({ input: "New question", sessionId: "user-new" });

      // Periodic cleanup
      const timer = setInterval(
        async () => {
          const entries = await memory.entries();
          const stale = entries.filter((e) => {
            const age = Date.now() - e.metadata.accessedAt.getTime();
            return age > 7 * 24 * 60 * 60 * 1000; // 7 days
          });
          for (const entry of stale) {
            await memory.clear(entry.sessionId);
          }
        },
        60 * 60 * 1000,
      ); // Every hour

      await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
      clearInterval(timer);
      expect((await memory.entries()).map((entry) => entry.sessionId)).toEqual(["user-new"]);
      await agent.run({ input: "Back again", sessionId: "user-old" });
      expect(contents(model.calls.at(-1)!.messages)).toEqual(["Back again"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
