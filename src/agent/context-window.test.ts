// The memory strategies as the Agent uses them: what the model receives, and context:trimmed.
import { describe, expect, it } from "vitest";
import { Agent } from "./agent";
import type { AgentEventMap } from "./agent-events";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { TokenWindowMemory } from "../strategies/token-window";

describe("Agent context window", () => {
  it('memory: "sliding_window" with maxMessages: 2 sends only the last 2 turns', async () => {
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index + 1}` }) });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memory: "sliding_window", maxMessages: 2, memoryStore: store, sessionId: "s" });
    for (let index = 1; index <= 4; index++) await agent.run(`question ${index}`);
    expect(model.calls[3]!.messages.map((message) => message.content)).toEqual([
      "question 3",
      "answer 3",
      "question 4",
    ]);
    expect(await store.getMessages("s")).toHaveLength(8); // the store keeps everything
  });

  it("context:trimmed reports dropped ids, token figures, the budget and the calibrated estimate", async () => {
    const model = new MockLanguageModel({
      provider: "openai",
      modelId: "gpt-4o-calibration-test",
      responses: (_call, index) => ({
        text: `answer number ${index + 1} `.repeat(20),
        usage: { inputTokens: 500, outputTokens: 5 },
      }),
    });
    const agent = new Agent({
      model,
      memory: new TokenWindowMemory({ maxTokens: 300, stablePrefix: false }),
      sessionId: "s",
    });
    const events: AgentEventMap["context:trimmed"][] = [];
    agent.on("context:trimmed", (event) => events.push(event));
    for (let index = 1; index <= 6; index++) await agent.run(`question ${index}`);
    expect(events.length).toBeGreaterThan(0);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ sessionId: "s", strategy: "token_window", summarized: false, budget: 300 });
    expect(last.droppedCount).toBe(last.droppedMessageIds.length);
    expect(last.tokensBefore!).toBeGreaterThan(last.tokensAfter!);
    // The provider reported more input tokens than we estimated: a ratio above 1 was learnt and applied.
    expect(last.calibration!).toBeGreaterThan(1);
    expect(last.calibratedTokensAfter).toBe(Math.ceil(last.tokensAfter! * last.calibration!));
    const sent = model.calls.at(-1)!.messages;
    expect(sent.at(-1)!.content).toBe("question 6");
  });

  it('memory: "token_window" uses maxTokens, "summary" uses the agent model by default', async () => {
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [] }),
      memory: "token_window",
      maxTokens: 1234,
    });
    expect(agent.strategy).toBeInstanceOf(TokenWindowMemory);
    const model = new MockLanguageModel({
      responses: (call, index) =>
        call.system?.startsWith("You keep a running summary")
          ? { text: "they asked things" }
          : { text: `answer ${index}` },
    });
    const summarising = new Agent({ model, memory: "summary" });
    for (let index = 1; index <= 12; index++) await summarising.run(`question ${index}`);
    expect(model.calls.some((call) => call.system?.includes("<conversation_summary>"))).toBe(true);
  });
});
