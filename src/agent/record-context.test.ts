// Context reports (`recordContext: true`): what each model call received, as stored by the agent.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent } from "./agent";
import { SessionLockLostError } from "../errors/session-lock-lost-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { TokenWindowMemory } from "../strategies/token-window";
import { SummaryMemory } from "../strategies/summary-memory";
import { SlidingWindowMemory } from "../strategies/sliding-window";
import { tool } from "../tools/tool";
import type { RecallMemoryProvider } from "../providers/memory-provider";

const recallProvider: RecallMemoryProvider = {
  type: "test-recall",
  read: async () => [
    { id: "m1", content: "The user likes green tea.", score: 0.91, messageId: "old-1" },
    { id: "m2", content: "The user lives in Lyon.", score: 0.42 },
  ],
  write: async () => {},
};

describe("recordContext", () => {
  it("records, per model call, the window, what was left out and why, facts, recalled memories and tokens", async () => {
    const model = new MockLanguageModel({
      responses: (_call, index) => ({
        text: `answer ${index + 1} `.repeat(80),
        usage: { inputTokens: 120, outputTokens: 7 },
      }),
    });
    const store = new InMemoryStore();
    await store.setFact("session:s", { key: "name", value: "Ada", createdAt: 1, updatedAt: 1 });
    const agent = new Agent({
      model,
      systemPrompt: "You are helpful.",
      memory: new TokenWindowMemory({ maxTokens: 300, stablePrefix: false }),
      memoryStore: store,
      memoryProvider: recallProvider,
      enableMemoryTools: true,
      recordContext: true,
      sessionId: "s",
    });
    for (let index = 1; index <= 5; index++) await agent.run(`question ${index}`);
    const reports = await store.getContextReports("s");
    expect(reports).toHaveLength(5);
    const last = reports.at(-1)!;
    const stored = await store.getMessages("s");
    const sent = model.calls.at(-1)!.messages;
    // The window is exactly what the model received, by id (the turn's user message went as a
    // copy that carries the recalled memories, without the stored message's id).
    expect(sent.at(-1)!.id).toBeUndefined();
    expect(last.window).toEqual(sent.map((message) => message.id ?? stored.at(-2)!.id));
    // Everything stored before this turn is either in the window or left out for the budget.
    const before = stored.slice(0, -1).map((message) => message.id);
    expect([...last.leftOut.map((entry) => entry.messageId), ...last.window]).toEqual(before);
    expect(last.leftOut.length).toBeGreaterThan(0);
    expect(new Set(last.leftOut.map((entry) => entry.reason))).toEqual(new Set(["token-budget"]));
    expect(last).toMatchObject({
      sessionId: "s",
      step: 1,
      model: "mock/mock-model",
      strategy: "token_window",
      facts: [{ key: "name" }],
      recalled: [
        { id: "m1", content: "The user likes green tea.", score: 0.91, messageId: "old-1" },
        { id: "m2", content: "The user lives in Lyon.", score: 0.42 },
      ],
      usage: { inputTokens: 120, outputTokens: 7, totalTokens: 127 },
      finishReason: "stop",
    });
    const { system, facts, summary, recalled, window, total, budget } = last.tokens;
    expect([system, facts, recalled, window].every((tokens) => tokens > 0)).toBe(true);
    expect(summary).toBe(0);
    expect(total).toBe(system + facts + summary + recalled + window);
    expect(budget).toBe(300);
    // Runs differ; the first report of the session left nothing out.
    expect(new Set(reports.map((report) => report.runId)).size).toBe(5);
    expect(reports[0]!.leftOut).toEqual([]);
  });

  it("says which messages a summary covers, and which tool results were sent cut", async () => {
    const model = new MockLanguageModel({
      responses: (call, index) => {
        // The summariser's calls carry no tools; the agent's carry its lookup tool.
        if (!call.tools?.length) return { text: "The user asked earlier questions." };
        const last = call.messages.at(-1)!;
        if (last.role === "user" && last.content === "look it up")
          return { toolCalls: [{ id: `c${index}`, name: "lookup", arguments: {} }] };
        return { text: `answer ${index}` };
      },
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, maxToolResultLength: 100 }),
      memoryStore: store,
      recordContext: true,
      sessionId: "s",
      tools: { lookup: tool({ description: "look", parameters: z.object({}), execute: async () => "x".repeat(500) }) },
    });
    for (let index = 1; index <= 4; index++) await agent.run(`question ${index}`);
    await agent.run("look it up");
    const reports = await store.getContextReports("s");
    const withSummary = reports.filter((report) => report.summaryId);
    expect(withSummary.length).toBeGreaterThan(0);
    // The summary is referenced by its stored record's id, its text not copied.
    const summaryIds = (await store.getSummaries("s")).map((summary) => summary.id);
    expect(summaryIds).toContain(withSummary.at(-1)!.summaryId);
    expect(JSON.stringify(reports)).not.toContain("The user asked earlier questions.");
    expect(withSummary.at(-1)!.leftOut.some((entry) => entry.reason === "summary")).toBe(true);
    expect(withSummary.at(-1)!.tokens.summary).toBeGreaterThan(0);
    const afterTool = reports.at(-1)!;
    expect(afterTool.step).toBe(2);
    const cut = afterTool.leftOut.find((entry) => entry.reason === "tool-result-cut");
    expect(cut).toMatchObject({ role: "tool", storedChars: 500 });
    expect(cut!.sentChars).toBeLessThan(500);
    expect(afterTool.window).toContain(cut!.messageId);
  });

  it("marks a sliding window's drops as window-size", async () => {
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memory: new SlidingWindowMemory({ maxMessages: 1, stablePrefix: false }),
      memoryStore: store,
      recordContext: true,
      sessionId: "s",
    });
    for (let index = 1; index <= 3; index++) await agent.run(`question ${index}`);
    const last = (await store.getContextReports("s")).at(-1)!;
    expect(last.leftOut.map((entry) => entry.reason)).toEqual([
      "window-size",
      "window-size",
      "window-size",
      "window-size",
    ]);
  });

  it("off by default: the store is never asked to save a report", async () => {
    const store = new InMemoryStore();
    const save = vi.spyOn(store, "saveContextReport");
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "hi" }] }),
      memoryStore: store,
      sessionId: "s",
    });
    await agent.run("hello");
    expect(save).not.toHaveBeenCalled();
    expect(await store.getContextReports("s")).toEqual([]);
  });

  it("a store that fails to keep a report degrades the step (memory:error), the run succeeds", async () => {
    const store = new InMemoryStore();
    vi.spyOn(store, "saveContextReport").mockRejectedValue(new Error("disk full"));
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "hi" }] }),
      memoryStore: store,
      recordContext: true,
      sessionId: "s",
    });
    const errors: unknown[] = [];
    agent.on("memory:error", (event) => errors.push(event));
    expect((await agent.run("hello")).text).toBe("hi");
    expect(errors).toMatchObject([{ source: "recordContext", operation: "saveContextReport" }]);
    expect(await store.getMessages("s")).toHaveLength(2);
  });

  it("a report refused because the run lost its session lock fails the run, streamed or not, before its tools run", async () => {
    const store = new InMemoryStore();
    const lost = new SessionLockLostError({ store: "TestStore", operation: "saveContextReport", sessionId: "s" });
    vi.spyOn(store, "saveContextReport").mockRejectedValue(lost);
    const ran: string[] = [];
    const agent = new Agent({
      model: new MockLanguageModel({
        responses: [{ toolCalls: [{ id: "c1", name: "note", arguments: { text: "x" } }] }, { text: "done" }],
      }),
      memoryStore: store,
      recordContext: true,
      sessionId: "s",
      tools: {
        note: tool({ parameters: z.object({ text: z.string() }), execute: async ({ text }) => ran.push(text) }),
      },
    });
    const errors: unknown[] = [];
    agent.on("memory:error", (event) => errors.push(event));
    await expect(agent.run("hello")).rejects.toBe(lost);
    await expect(agent.stream({ input: "again" }).response).rejects.toBe(lost);
    expect(ran).toEqual([]);
    expect(errors).toEqual([]);
    // Each run's user message, stored before the model call; no answer.
    expect((await store.getMessages("s")).map((message) => message.role)).toEqual(["user", "user"]);
  });
});
