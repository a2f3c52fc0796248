// The AgentLIB "Memory" document's examples (seeds/000) that need no agent, run as written with the
// package name changed to `agentcore` (those that build one: agentlib-agent.test.ts).
import { describe, expect, it, vi } from "vitest";
import {
  BufferMemory,
  CompositeMemory,
  SlidingWindowMemory,
  SummarizingMemory,
  estimateMessagesTokens,
  estimateTokens,
  openai,
  trimToTokenBudget,
  type MemoryEntry,
  type MemoryMetadata,
  type MemoryReadOptions,
  type MemoryWriteOptions,
  type ModelMessage,
} from "agentcore";
import { VectorMemory } from "./fixtures/custom-vector-memory";
import { conversation } from "./fixtures/conversation";

describe("AgentLIB document: the MemoryProvider contract", () => {
  it("exports the document's types with its shapes", () => {
    const metadata: MemoryMetadata = {
      createdAt: new Date(),
      accessedAt: new Date(),
      agentName: "a",
      tags: { topic: "billing" },
      tokenCount: 3,
    };
    const entry: MemoryEntry = { id: "1", sessionId: "s", messages: [{ role: "user", content: "hi" }], metadata };
    const read: MemoryReadOptions = { limit: 10, sessionId: "s", query: "q", tags: { topic: "billing" } };
    const write: MemoryWriteOptions = { sessionId: "s", tags: { topic: "billing" }, agentName: "a" };
    expect([entry.sessionId, read.limit, write.agentName]).toEqual(["s", 10, "a"]);
  });
});

describe("AgentLIB document: BufferMemory", () => {
  it("keeps sessions apart, never stores system messages, and windows to maxMessages on read", async () => {
    const memory = new BufferMemory({
      maxMessages: 40, // Keep the last 40 messages
      maxTokens: 8000, // Optional: trim to token budget
    });
    await memory.write([{ role: "system", content: "You are helpful." }, ...conversation(30)], {
      sessionId: "user-123",
      agentName: "assistant",
    });
    await memory.write(conversation(1, "other"), { sessionId: "user-456" });
    const history = await memory.read({ sessionId: "user-123" });
    expect(history.some((message) => message.role === "system")).toBe(false);
    expect(history.length).toBeLessThanOrEqual(40);
    expect(history.at(-1)).toMatchObject({ role: "assistant", content: "answer 29" });
    expect(history[0]!.role).toBe("user");
    expect((await memory.read({ sessionId: "user-456" })).map((message) => message.content)).toEqual([
      "other0 question",
      "answer 0",
    ]);
    // Every message written is kept (windowing is on read, nothing is deleted).
    const [entry] = await memory.entries("user-123");
    expect(entry!.messages).toHaveLength(60);
    expect(entry!.metadata).toMatchObject({
      agentName: "assistant",
      createdAt: expect.any(Date),
      accessedAt: expect.any(Date),
      tokenCount: expect.any(Number),
    });
  });

  it("writes back history plus the new turn without duplicating it (the document's lifecycle)", async () => {
    const memory = new BufferMemory();
    await memory.write(conversation(1), { sessionId: "s" });
    const history = await memory.read({ sessionId: "s" });
    await memory.write([...history, { role: "user", content: "next" }, { role: "assistant", content: "done" }], {
      sessionId: "s",
    });
    expect((await memory.read({ sessionId: "s" })).map((message) => message.content)).toEqual([
      "q0 question",
      "answer 0",
      "next",
      "done",
    ]);
  });

  it("applies maxTokens on read", async () => {
    const memory = new BufferMemory({ maxMessages: 100, maxTokens: 30 });
    await memory.write(conversation(20), { sessionId: "s" });
    const history = await memory.read({ sessionId: "s" });
    expect(estimateMessagesTokens(history)).toBeLessThanOrEqual(30);
    expect(history.at(-1)!.content).toBe("answer 19");
  });
});

describe("AgentLIB document: read and write options", () => {
  it("runs the read examples: limit, query, tags", async () => {
    const memory = new BufferMemory();
    await memory.write(conversation(8), { sessionId: "user-123", tags: { topic: "billing", priority: "high" } });

    // Limit to 10 most recent messages
    const recent = await memory.read({ sessionId: "user-123", limit: 10 });

    // Semantic search (for vector memory providers)
    const relevant = await memory.read({
      sessionId: "user-123",
      query: "previous discussions about pricing",
    });

    // Filter by tags
    const tagged = await memory.read({
      sessionId: "user-123",
      tags: { topic: "billing", priority: "high" },
    });

    expect(recent).toHaveLength(10);
    expect(recent.at(-1)!.content).toBe("answer 7");
    expect(relevant).toHaveLength(16); // a buffer has no semantic search: the conversation
    expect(tagged).toHaveLength(16);
    expect(await memory.read({ sessionId: "user-123", tags: { topic: "auth" } })).toEqual([]);
  });

  it("runs the tagged write example", async () => {
    const memory = new BufferMemory();
    const messages: ModelMessage[] = conversation(1);
    await memory.write(messages, {
      sessionId: "user-123",
      agentName: "support-agent",
      tags: {
        resolved: "true",
        category: "billing",
        sentiment: "positive",
      },
    });
    const [entry] = await memory.entries();
    expect(entry!.metadata.tags).toEqual({ resolved: "true", category: "billing", sentiment: "positive" });
    expect(entry!.metadata.agentName).toBe("support-agent");
    expect(await memory.read({ sessionId: "user-123", tags: { category: "billing" } })).toHaveLength(2);
  });
});

describe("AgentLIB document: SlidingWindowMemory", () => {
  it("keeps whole turns within maxTurns and maxTokens", async () => {
    const memory = new SlidingWindowMemory({
      maxTokens: 4000, // Token budget for retrieved history
      maxTurns: 30, // Max conversation turns to retain
    });
    await memory.write(
      [
        ...conversation(40),
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Tokyo" } }],
        },
        { role: "tool", toolCallId: "c1", name: "get_weather", content: "sunny" },
        { role: "assistant", content: "It is sunny." },
      ],
      { sessionId: "s" },
    );
    const history = await memory.read({ sessionId: "s" });
    const turns = history.filter((message) => message.role === "user").length;
    expect(turns).toBeLessThanOrEqual(30);
    expect(history[0]!.role).toBe("user");
    expect(history.slice(-4).map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });
});

describe("AgentLIB document: token utilities", () => {
  it("runs the token management example", () => {
    const messages: ModelMessage[] = conversation(400);
    // Estimate tokens in a string
    const tokens = estimateTokens("Hello, world!"); // ~4 tokens

    // Estimate tokens across all messages
    const total = estimateMessagesTokens(messages); // Sum of all message tokens

    // Trim messages to fit budget (removes oldest first)
    const trimmed = trimToTokenBudget(messages, 4000);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThan(10);
    expect(total).toBeGreaterThan(estimateMessagesTokens(trimmed));
    expect(estimateMessagesTokens(trimmed)).toBeLessThanOrEqual(4000);
    expect(trimmed.at(-1)).toEqual(messages.at(-1));
  });
});

describe("AgentLIB document: SummarizingMemory", () => {
  it("builds with openai({ model }) and summarises older messages on read", async () => {
    const memory = new SummarizingMemory({
      recentMessages: 10, // Keep last 10 messages verbatim
      summaryModel: openai({ model: "gpt-3.5-turbo" }),
      summarizeEvery: 20, // Summarize every 20 messages
      maxSummaryTokens: 500, // Budget for summary
    });
    expect(memory.type).toBe("summarizing");
  });

  it("returns a summary system message and the recent messages", async () => {
    const { MockLanguageModel } = await import("agentcore/testing");
    const summaryModel = new MockLanguageModel({ responses: () => ({ text: "The user asked many questions." }) });
    const memory = new SummarizingMemory({ recentMessages: 4, summaryModel, summarizeEvery: 6, maxSummaryTokens: 500 });
    await memory.write(conversation(10), { sessionId: "s" });
    const history = await memory.read({ sessionId: "s" });
    expect(history[0]).toEqual({ role: "system", content: expect.stringContaining("The user asked many questions.") });
    expect(history.at(-1)!.content).toBe("answer 9");
    expect(history.length).toBeLessThan(20);
    expect(summaryModel.calls).toHaveLength(1);
  });
});

describe("AgentLIB document: CompositeMemory", () => {
  it("accepts a BufferMemory beside a custom provider and merges by mergeStrategy", async () => {
    const memory = new CompositeMemory({
      providers: [
        new BufferMemory({ maxMessages: 20 }), // Recent conversation
        new VectorMemory({ topK: 5, threshold: 0.7 }), // Relevant past context
      ],
      mergeStrategy: "interleave", // or 'concat' or 'priority'
    });
    await memory.write(conversation(3), { sessionId: "s" });
    const merged = (await memory.read({ sessionId: "s", query: "q1" })) as unknown as ModelMessage[];
    expect(merged.map((message) => message.content)).toEqual([
      "q0 question",
      "answer 0",
      "Relevant: q1 question",
      "q1 question",
      "answer 1",
      "q2 question",
      "answer 2",
    ]);
    const concat = new CompositeMemory({
      providers: [new BufferMemory(), new VectorMemory({ topK: 5, threshold: 0.7 })],
      mergeStrategy: "concat",
    });
    await concat.write(conversation(2), { sessionId: "s" });
    expect(
      ((await concat.read({ sessionId: "s", query: "q0" })) as unknown as ModelMessage[]).map(
        (message) => message.content,
      ),
    ).toEqual(["q0 question", "answer 0", "q1 question", "answer 1", "Relevant: q0 question"]);
    const priority = new CompositeMemory({
      providers: [new BufferMemory(), new VectorMemory({ topK: 5, threshold: 0.7 })],
      mergeStrategy: "priority",
    });
    await priority.write(conversation(1), { sessionId: "s" });
    expect(
      ((await priority.read({ sessionId: "s" })) as unknown as ModelMessage[]).map((message) => message.content),
    ).toEqual(["q0 question", "answer 0"]);
  });
});

describe("AgentLIB document: stale-session cleanup", () => {
  it("runs the periodic cleanup with entries() and clear()", async () => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date", "setInterval", "clearInterval"] });
    try {
      const memory = new BufferMemory();
      await memory.write(conversation(1), { sessionId: "old" });
      vi.setSystemTime(new Date("2026-01-10T00:00:00Z"));
      await memory.write(conversation(1), { sessionId: "fresh" });

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
      expect((await memory.entries()).map((entry) => entry.sessionId)).toEqual(["fresh"]);
      expect(await memory.read({ sessionId: "old" })).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
