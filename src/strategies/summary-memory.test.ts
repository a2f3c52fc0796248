import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent/agent";
import type { AgentEventMap } from "../agent/agent-events";
import { SessionLockLostError } from "../errors/session-lock-lost-error";
import { SummarizationError } from "../errors/summarization-error";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { InMemoryStore } from "../stores/in-memory-store";
import type { SummaryRecord } from "../stores/memory-store";
import { MockLanguageModel, type MockResponse } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { SummarizingMemory } from "./summarizing-memory";
import { SummaryMemory } from "./summary-memory";

/** An InMemoryStore that also keeps summary records (the optional capability). */
class StoreWithSummaries extends InMemoryStore {
  readonly summaries = new Map<string, SummaryRecord[]>();
  override async getSummaries(sessionId: string) {
    return structuredClone(this.summaries.get(sessionId) ?? []);
  }
  override async saveSummary(sessionId: string, record: SummaryRecord) {
    const records = this.summaries.get(sessionId) ?? [];
    if (!records.some((existing) => existing.id === record.id))
      this.summaries.set(sessionId, [...records, structuredClone(record)]);
  }
}

function setup(options: {
  summarizer: (index: number) => MockResponse | Promise<MockResponse>;
  store?: InMemoryStore;
  timeoutMs?: number;
  maxSummaryTokens?: number;
}) {
  const summarizer = new MockLanguageModel({
    provider: "mock",
    modelId: "summarizer",
    responses: (_call, index) => options.summarizer(index),
  });
  const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index + 1}` }) });
  const store = options.store ?? new InMemoryStore();
  const memory = new SummaryMemory({
    summarizeThreshold: 4,
    recentMessages: 2,
    model: summarizer,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxSummaryTokens ? { maxSummaryTokens: options.maxSummaryTokens } : {}),
  });
  const agent = new Agent({ model, memory, memoryStore: store, sessionId: "s", systemPrompt: "Base." });
  const errors: AgentMap["memory:error"][] = [];
  const trimmed: AgentMap["context:trimmed"][] = [];
  agent.on("memory:error", (event) => errors.push(event));
  agent.on("context:trimmed", (event) => trimmed.push(event));
  return { agent, model, summarizer, store, errors, trimmed };
}
type AgentMap = AgentEventMap;

const contents = (messages: AgentMessage[]) => messages.map((message) => message.content);

describe("SummaryMemory", () => {
  it("summarises older turns into the system prompt, stores a record, and reuses and extends it incrementally", async () => {
    const store = new StoreWithSummaries();
    const { agent, model, summarizer, trimmed } = setup({
      summarizer: (index) => ({ text: `summary ${index + 1}` }),
      store,
    });
    await agent.run("question 1");
    await agent.run("question 2");
    expect(summarizer.calls).toHaveLength(0);
    await agent.run("question 3"); // 5 messages > threshold 4: turns 1–2 are summarised
    expect(summarizer.calls).toHaveLength(1);
    const firstInput = summarizer.calls[0]!.messages[0]!.content;
    expect(firstInput).toContain("User: question 1");
    expect(firstInput).toContain("Assistant: answer 2");
    expect(firstInput).not.toContain("question 3");
    expect(model.calls[2]!.system).toContain("<conversation_summary>");
    expect(model.calls[2]!.system).toContain("summary 1");
    expect(model.calls[2]!.system!.startsWith("Base.")).toBe(true);
    expect(contents(model.calls[2]!.messages)).toEqual(["question 3"]);
    expect(trimmed.at(-1)).toMatchObject({ summarized: true, droppedCount: 4, keptCount: 1 });

    const [record] = store.summaries.get("s")!;
    const stored = await store.getMessages("s");
    expect(record).toMatchObject({
      content: "summary 1",
      fromMessageId: stored[0]!.id,
      toMessageId: stored[3]!.id,
      messageCount: 4,
      model: "mock/summarizer",
    });
    expect(typeof record!.createdAt).toBe("number");

    await agent.run("question 4"); // reused: no new summariser call
    expect(summarizer.calls).toHaveLength(1);
    expect(model.calls[3]!.system).toContain("summary 1");
    expect(contents(model.calls[3]!.messages)).toEqual(["question 3", "answer 3", "question 4"]);

    await agent.run("question 5"); // extended with only the new turns and the previous summary
    expect(summarizer.calls).toHaveLength(2);
    const secondInput = summarizer.calls[1]!.messages[0]!.content;
    expect(secondInput).toContain("<previous_summary>\nsummary 1\n</previous_summary>");
    expect(secondInput).toContain("User: question 3");
    expect(secondInput).toContain("User: question 4");
    expect(secondInput).not.toContain("question 1");
    expect(secondInput).not.toContain("question 5");
    expect(model.calls[4]!.system).toContain("summary 2");
    expect(store.summaries.get("s")).toHaveLength(2);
    expect(await store.getMessages("s")).toHaveLength(10); // nothing stored was lost
  });

  it("on a long session reads only the newest summaries, and all of them only when none of those ends in the history", async () => {
    const store = new InMemoryStore();
    const reads: unknown[] = [];
    const read = store.getSummaries.bind(store);
    store.getSummaries = (sessionId, options) => {
      reads.push(options);
      return read(sessionId, options);
    };
    const stored: AgentMessage[] = Array.from({ length: 40 }, (_, index) => ({
      id: `m${index}`,
      role: index % 2 === 0 ? "user" : "assistant",
      content: `message ${index}`,
    }));
    await store.appendMessages("s", stored);
    const record = (id: string, toMessageId: string, messageCount: number, content: string): SummaryRecord => ({
      id,
      content,
      fromMessageId: "m0",
      toMessageId,
      messageCount,
      model: "mock/summarizer",
      createdAt: 1,
    });
    // A summary whose end this history does not hold (a rewritten session) is never used.
    const stale = (index: number) => record(`stale-${index}`, `gone-${index}`, 1, `stale ${index}`);
    for (let index = 0; index < 50; index++) await store.saveSummary("s", stale(index));
    await store.saveSummary("s", record("valid", "m19", 20, "the valid summary"));
    const summarizer = new MockLanguageModel({ responses: () => ({ text: "never" }) });
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({
      model,
      memory: new SummaryMemory({ summarizeThreshold: 100, recentMessages: 2, model: summarizer }),
      memoryStore: store,
      sessionId: "s",
    });

    await agent.run("next");
    expect(reads).toEqual([{ last: 4 }]); // 51 summaries kept, 4 read
    expect(model.calls[0]!.system).toContain("the valid summary");
    expect(contents(model.calls[0]!.messages)[0]).toBe("message 20");

    // Newer summaries that do not fit this history push the valid one out of the newest four: read them all.
    for (let index = 50; index < 55; index++) await store.saveSummary("s", stale(index));
    reads.length = 0;
    await agent.run("again");
    expect(reads).toEqual([{ last: 4 }, undefined]);
    expect(model.calls[1]!.system).toContain("the valid summary");
    expect(summarizer.calls).toHaveLength(0);
  });

  it("keeps records for a store without summary methods in a per-store fallback", async () => {
    const { agent, summarizer, model } = setup({ summarizer: () => ({ text: "the summary" }) });
    for (let index = 1; index <= 4; index++) await agent.run(`question ${index}`);
    expect(summarizer.calls).toHaveLength(1);
    expect(model.calls[3]!.system).toContain("the summary");
  });

  it("digests tool calls and results for the summariser", async () => {
    const summarizer = new MockLanguageModel({ responses: () => ({ text: "weather was asked" }) });
    const model = new MockLanguageModel({
      responses: (_call, index) =>
        index === 0
          ? { toolCalls: [{ id: "w1", name: "get_weather", arguments: { city: "Tokyo" } }] }
          : { text: `answer ${index}` },
    });
    const weather = tool({
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, temperature: "22°C", details: "x".repeat(5000) }),
    });
    const agent = new Agent({
      model,
      memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, model: summarizer }),
      tools: { get_weather: weather },
    });
    await agent.run("weather in Tokyo?");
    await agent.run("thanks");
    expect(summarizer.calls).toHaveLength(1);
    const input = summarizer.calls[0]!.messages[0]!.content;
    expect(input).toContain('Assistant called get_weather({"city":"Tokyo"})');
    expect(input).toMatch(
      /Tool get_weather returned: \{"city":"Tokyo","temperature":"22°C","details":"x+… \[\d+ more characters\]/,
    );
    expect(input.length).toBeLessThan(2000);
  });

  const failures: [string, Parameters<typeof setup>[0]["summarizer"], SummarizationError["reason"], object?][] = [
    ["throws", () => ({ error: new Error("provider down") }), "failed"],
    [
      "times out",
      () => new Promise<MockResponse>((resolve) => setTimeout(() => resolve({ text: "late" }), 2_000)),
      "timeout",
      { timeoutMs: 50 },
    ],
    ["answers too long", () => ({ text: "word ".repeat(2000) }), "too-long", { maxSummaryTokens: 100 }],
    ["hits its token limit", () => ({ text: "cut", finishReason: "length" }), "too-long"],
    ["answers empty", () => ({ text: "   " }), "empty"],
  ];
  it.each(failures)(
    "when the summariser %s: token window for the turn, memory:error, nothing lost, nothing committed",
    async (_name, summarizer, reason, extra) => {
      const store = new StoreWithSummaries();
      const { agent, model, errors } = setup({ summarizer, store, ...extra });
      for (let index = 1; index <= 3; index++) await agent.run(`question ${index}`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ source: "summary", operation: "apply", sessionId: "s" });
      expect(SummarizationError.isInstance(errors[0]!.error)).toBe(true);
      expect((errors[0]!.error as SummarizationError).reason).toBe(reason);
      // Fallback: a token window (everything fits), no summary block.
      expect(model.calls[2]!.system).toBe("Base.");
      expect(contents(model.calls[2]!.messages)).toEqual([
        "question 1",
        "answer 1",
        "question 2",
        "answer 2",
        "question 3",
      ]);
      expect(findToolPairingIssues(model.calls[2]!.messages)).toEqual([]);
      expect(store.summaries.get("s")).toBeUndefined();
      expect(await store.getMessages("s")).toHaveLength(6);
    },
  );

  it("a summary the store cannot save still serves the turn; one refused because the run lost its session lock fails the run", async () => {
    let refusal = new Error("disk full");
    class FailingSaves extends StoreWithSummaries {
      override async saveSummary(): Promise<void> {
        throw refusal;
      }
    }
    const store = new FailingSaves();
    const { agent, model, summarizer, errors } = setup({ summarizer: () => ({ text: "the summary" }), store });
    for (let index = 1; index <= 3; index++) await agent.run(`question ${index}`);
    // Summarised at question 3; the save failed: a memory:error, and the summary still served the turn.
    expect(summarizer.calls).toHaveLength(1);
    expect(model.calls[2]!.system).toContain("the summary");
    expect(errors.map((event) => [event.source, SummarizationError.isInstance(event.error)])).toEqual([
      ["summary", true],
    ]);

    refusal = new SessionLockLostError({ store: "FailingSaves", operation: "saveSummary", sessionId: "s" });
    await expect(agent.run("question 4")).rejects.toBe(refusal);
    await expect(agent.stream({ input: "question 5" }).response).rejects.toBe(refusal);
    // Failed as at a refused append: not degraded to a memory:error, and before the model was called.
    expect(summarizer.calls).toHaveLength(3);
    expect(model.calls).toHaveLength(3);
    expect(errors).toHaveLength(1);
    // Nothing lost: each question was stored before the window was fitted; no answer to them.
    expect(contents(await store.getMessages("s")).slice(-3)).toEqual(["answer 3", "question 4", "question 5"]);
  });

  it("after a failure, waits for more history before calling the summariser again, then recovers", async () => {
    let down = true;
    const { agent, summarizer, model, errors } = setup({
      summarizer: () => (down ? { error: new Error("down") } : { text: "recovered summary" }),
    });
    await agent.run("question 1");
    await agent.run("question 2");
    await agent.run("question 3"); // fails (5 messages)
    expect(summarizer.calls).toHaveLength(1);
    down = false;
    await agent.run("question 4"); // 7 messages ≥ 5 + (4 − 2): retried, and it works now
    expect(summarizer.calls).toHaveLength(2);
    expect(errors).toHaveLength(1);
    expect(model.calls[3]!.system).toContain("recovered summary");
  });

  it("does not call a failing summariser again until the history grew by summarizeThreshold - recentMessages", async () => {
    const summarizer = new MockLanguageModel({ responses: () => ({ error: new Error("down") }) });
    const strategy = new SummaryMemory({ summarizeThreshold: 6, recentMessages: 2, model: summarizer });
    const history: AgentMessage[] = Array.from({ length: 12 }, (_, index) => ({
      id: `b${index}`,
      role: index % 2 ? "assistant" : "user",
      content: `m${index}`,
    }));
    const errors: unknown[] = [];
    const context = { sessionId: "s", store: new InMemoryStore(), onError: (error: unknown) => errors.push(error) };
    await strategy.apply(history.slice(0, 7), context); // fails at 7 messages
    await strategy.apply(history.slice(0, 9), context); // 9 < 7 + 4: backing off
    await strategy.apply(history.slice(0, 10), context);
    expect(summarizer.calls).toHaveLength(1);
    const result = await strategy.apply(history.slice(0, 11), context); // 11 ≥ 7 + 4: tried again
    expect(summarizer.calls).toHaveLength(2);
    expect(errors).toHaveLength(2);
    expect(result.messages).toHaveLength(11); // token window: everything fits
  });

  it("checks its options", () => {
    expect(() => new SummaryMemory(4, 4)).toThrow(InvalidArgumentError);
    expect(() => new SummaryMemory({ countTurns: true, summarizeThreshold: 3, recentTurns: 3 })).toThrow(
      /recentTurns \(3\) must be smaller/,
    );
    // The positional form counts turns (the AgentCore document's "summarize after 10 turns, retain 4 recent turns").
    expect(new SummaryMemory(10, 4)).toMatchObject({ unit: "turns", summarizeThreshold: 10, recentTurns: 4 });
    expect(new SummaryMemory(10)).toMatchObject({ unit: "turns", recentTurns: 3 });
    expect(new SummaryMemory({ summarizeThreshold: 10, recentMessages: 4 })).toMatchObject({
      unit: "messages",
      summarizeThreshold: 10,
      recentMessages: 4,
      recentTurns: undefined,
    });
    expect(new SummarizingMemory({ recentMessages: 6, summarizeEvery: 4 })).toMatchObject({
      summarizeThreshold: 10,
      recentMessages: 6,
      name: "summarizing",
    });
    expect(new SummarizingMemory()).toBeInstanceOf(SummaryMemory);
  });

  it("keeps its summaries and failures per session in itself when the run has no store", async () => {
    let calls = 0;
    const summarizer = new MockLanguageModel({
      provider: "mock",
      modelId: "summarizer",
      responses: () => (++calls === 1 ? { text: "" } : { text: `summary ${calls}` }),
    });
    const memory = new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, model: summarizer });
    const history: AgentMessage[] = Array.from(
      { length: 12 },
      (_, index) =>
        ({
          id: `m${index}`,
          role: index % 2 ? "assistant" : "user",
          content: `message ${index}`,
          timestamp: index,
        }) as AgentMessage,
    );
    const errors: unknown[] = [];
    const failed = await memory.apply(history.slice(0, 6), { sessionId: "s", onError: (error) => errors.push(error) });
    expect(failed.summary).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect((await memory.apply(history.slice(0, 7), { sessionId: "s" })).summary).toBeUndefined(); // backing off
    expect(calls).toBe(1);
    expect((await memory.apply(history.slice(0, 8), { sessionId: "s" })).summary).toBe("summary 2");
    expect((await memory.apply(history.slice(0, 9), { sessionId: "s" })).summary).toBe("summary 2"); // read back, no new call
    expect(calls).toBe(2);
    expect((await memory.apply(history.slice(0, 3), { sessionId: "other" })).summary).toBeUndefined();
  });

  it("counting turns: summarises once more than summarizeThreshold turns are uncovered, keeping recentTurns earlier turns and the current one", async () => {
    const summarizer = new MockLanguageModel({
      provider: "mock",
      modelId: "summarizer",
      responses: (_call, index) => ({ text: `summary ${index + 1}` }),
    });
    const model = new MockLanguageModel({ responses: (call) => ({ text: `re: ${call.messages.at(-1)!.content}` }) });
    const weather = tool({
      description: "Weather",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `sunny in ${city}`,
    });
    // Every run calls the tool first: a turn is four messages, which a message count would get wrong.
    let step = 0;
    const toolModel = new MockLanguageModel({
      responses: (call) =>
        step++ % 2 === 0
          ? { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] }
          : { text: `re: ${[...call.messages].reverse().find((message) => message.role === "user")!.content}` },
    });
    for (const [agentModel, tools] of [
      [model, {}],
      [toolModel, { get_weather: weather }],
    ] as const) {
      summarizer.calls.length = 0;
      const agent = new Agent({
        model: agentModel,
        memory: new SummaryMemory({ countTurns: true, summarizeThreshold: 5, recentTurns: 2, model: summarizer }),
        tools,
        sessionId: "s",
      });
      for (let turn = 1; turn <= 5; turn++) await agent.run(`q${turn}`);
      expect(summarizer.calls).toHaveLength(0);
      await agent.run("q6");
      expect(summarizer.calls).toHaveLength(1);
      const input = summarizer.calls[0]!.messages[0]!.content;
      expect(input).toContain("User: q3");
      expect(input).not.toContain("User: q4");
      const sent = agentModel.calls.at(-1)!.messages.filter((message) => message.role === "user");
      expect(contents(sent)).toEqual(["q4", "q5", "q6"]);
      expect(agentModel.calls.at(-1)!.system).toContain("summary 1");
      for (let turn = 7; turn <= 8; turn++) await agent.run(`q${turn}`);
      expect(summarizer.calls).toHaveLength(1); // 5 turns uncovered (q4–q8): not more than 5
      await agent.run("q9");
      expect(summarizer.calls).toHaveLength(2);
    }
  });
});
