// The agent's side of the usage ledger (docs/threads.md): what a run spends rides on its appends,
// so the session's and its owner's totals are the sum of every model call's usage.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { LanguageModel, LanguageModelUsage } from "../models/language-model";
import { SemanticMemoryProvider } from "../providers/semantic-memory-provider";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockEmbeddingModel } from "../testing/mock-embedding-model";
import { SummaryMemory } from "../strategies/summary-memory";
import { streamText } from "../streaming/stream-text";
import { MockLanguageModel, type MockLanguageModelOptions } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";
import { type ModelPricing, resolvePricing } from "./model-pricing";

type Spent = { model: string; usage: LanguageModelUsage & { reasoningTokens: number } };

/** A mock model whose every answer reports cached and reasoning tokens too, recorded in `spent`. */
function meteredModel(options: MockLanguageModelOptions, spent: Spent[]): LanguageModel & { mock: MockLanguageModel } {
  const mock = new MockLanguageModel(options);
  const meter = (usage: LanguageModelUsage) => {
    const metered = { ...usage, cachedInputTokens: Math.floor(usage.inputTokens / 2), reasoningTokens: 3 };
    spent.push({ model: mock.modelId, usage: metered });
    return metered;
  };
  return {
    mock,
    provider: mock.provider,
    modelId: mock.modelId,
    async doGenerate(call) {
      const result = await mock.doGenerate(call);
      return { ...result, usage: meter(result.usage) };
    },
    async *doStream(call) {
      for await (const part of mock.doStream(call))
        yield part.type === "finish" ? { ...part, usage: meter(part.usage) } : part;
    },
  };
}

const pricing: ModelPricing = {
  "mock-model": { inputPerMillion: 2_000_000, outputPerMillion: 4_000_000, cachedInputPerMillion: 1_000_000 },
  "mock/summarizer": { inputPerMillion: 500_000, outputPerMillion: 500_000 },
};

/** What the ledger should hold for `spent`, computed call by call. */
function expected(spent: Spent[]) {
  const totals = {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    modelCalls: spent.length,
    cost: 0,
  };
  for (const { model, usage } of spent) {
    totals.inputTokens += usage.inputTokens;
    totals.outputTokens += usage.outputTokens;
    totals.cachedInputTokens += usage.cachedInputTokens ?? 0;
    totals.reasoningTokens += usage.reasoningTokens;
    totals.totalTokens += usage.totalTokens;
    const price = pricing[model] ?? pricing[`mock/${model}`]!;
    const cached = usage.cachedInputTokens ?? 0;
    totals.cost +=
      ((usage.inputTokens - cached) * price.inputPerMillion +
        cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
        usage.outputTokens * price.outputPerMillion) /
      1_000_000;
  }
  return totals;
}

describe("the usage ledger, agent side", () => {
  it("records every model call of a run with tools, a structured-output retry and a summary, once", async () => {
    const spent: Spent[] = [];
    const summarizer = meteredModel(
      {
        modelId: "summarizer",
        responses: () => ({ text: "the summary", usage: { inputTokens: 40, outputTokens: 5 } }),
      },
      spent,
    );
    const script = [
      // Run 1: a tool step, then the answer.
      {
        toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }],
        usage: { inputTokens: 10, outputTokens: 2 },
      },
      { text: "It is sunny.", usage: { inputTokens: 14, outputTokens: 4 } },
      // Run 2: a reply that is not the object, then the object.
      { text: "not json", usage: { inputTokens: 20, outputTokens: 3 } },
      { object: { city: "Paris" }, usage: { inputTokens: 26, outputTokens: 6 } },
      // Runs 3 and 4: plain answers (the summariser runs before them).
      { text: "Third.", usage: { inputTokens: 30, outputTokens: 1 } },
      { text: "Fourth.", usage: { inputTokens: 31, outputTokens: 1 } },
    ];
    const model = meteredModel({ responses: (_call, index) => script[index]! }, spent);
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      pricing,
      memoryStore: store,
      memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, model: summarizer }),
      tools: {
        get_weather: tool({
          parameters: z.object({ city: z.string() }),
          execute: async (_input, context) => {
            // A tool's own model call (an MCP server's sampling): reported, counted once.
            const usage = {
              inputTokens: 100,
              outputTokens: 10,
              totalTokens: 110,
              cachedInputTokens: 0,
              reasoningTokens: 0,
            };
            spent.push({ model: "mock-model", usage });
            context.reportUsage?.(usage);
            return { sky: "sunny" };
          },
        }),
      },
    });
    const sessionId = "ledger-1";
    await agent.run({ input: "Weather in Paris?", sessionId, userId: "ada" });
    const object = await agent.run({
      input: "As an object, please.",
      sessionId,
      userId: "ada",
      output: z.object({ city: z.string() }),
    });
    expect(object.object).toEqual({ city: "Paris" });
    await agent.run({ input: "A third question", sessionId, userId: "ada" });
    await agent.run({ input: "A fourth question", sessionId, userId: "ada" });
    expect(summarizer.mock.calls.length).toBeGreaterThan(0);
    expect(model.mock.calls).toHaveLength(script.length);
    expect(spent.filter((call) => call.usage.inputTokens === 100)).toHaveLength(1);

    const want = expected(spent);
    const { cost, ...tokens } = await store.getUsage({ sessionId });
    const { cost: wantCost, ...wantTokens } = want;
    expect(tokens).toEqual(wantTokens);
    expect(cost).toBeCloseTo(wantCost, 6);
    expect(await store.getUsage({ userId: "ada" })).toEqual(await store.getUsage({ sessionId }));
    expect((await store.getSession(sessionId))?.usage).toEqual(await store.getUsage({ sessionId }));
  });

  it("adds nothing for a retried request (the same user message id): the stored turn answers it", async () => {
    const spent: Spent[] = [];
    const model = meteredModel(
      { responses: () => ({ text: "Hello!", usage: { inputTokens: 9, outputTokens: 2 } }) },
      spent,
    );
    const store = new InMemoryStore();
    const request = () =>
      streamText({
        model,
        pricing,
        memoryStore: store,
        sessionId: "retried",
        userId: "bo",
        messages: [{ id: "client-1", role: "user", content: "Hi" }],
      }).response;
    await request();
    const once = await store.getUsage({ sessionId: "retried" });
    expect(once.modelCalls).toBe(1);
    await request();
    expect(model.mock.calls).toHaveLength(1);
    expect(await store.getUsage({ sessionId: "retried" })).toEqual(once);
    expect(await store.getUsage({ userId: "bo" })).toEqual(once);
  });

  it("records a regenerate's calls with the write that replaces the answer", async () => {
    const spent: Spent[] = [];
    const model = meteredModel(
      {
        responses: (_call, index) => ({ text: `answer ${index}`, usage: { inputTokens: 5 + index, outputTokens: 1 } }),
      },
      spent,
    );
    const store = new InMemoryStore();
    const agent = new Agent({ model, pricing, memoryStore: store, sessionId: "again" });
    await agent.run("Question");
    await agent.run({ regenerate: true });
    expect((await store.getMessages("again")).map((message) => message.content)).toEqual(["Question", "answer 1"]);
    expect((await store.getUsage({ sessionId: "again" })).modelCalls).toBe(2);
    expect((await store.getUsage({ sessionId: "again" })).inputTokens).toBe(5 + 6);
  });

  it("records recall's embedding calls when the embedder reports their usage", async () => {
    const spent: Spent[] = [];
    const mock = new MockEmbeddingModel();
    /** Tokens of the embedding calls made while a read (recall) runs; the writes' are made after the run. */
    const recallTokens: number[] = [];
    let reading = false;
    const embedder = {
      provider: mock.provider,
      modelId: mock.modelId,
      async doEmbed(call: Parameters<MockEmbeddingModel["doEmbed"]>[0]) {
        const result = await mock.doEmbed(call);
        const inputTokens = call.values.join(" ").length;
        if (reading) recallTokens.push(inputTokens);
        return { ...result, usage: { inputTokens } };
      },
    };
    class ObservedProvider extends SemanticMemoryProvider {
      override async read(options: Parameters<SemanticMemoryProvider["read"]>[0]) {
        reading = true;
        try {
          return await super.read(options);
        } finally {
          reading = false;
        }
      }
    }
    const model = meteredModel(
      { responses: () => ({ text: "Noted.", usage: { inputTokens: 8, outputTokens: 2 } }) },
      spent,
    );
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      sessionId: "recall",
      memoryProvider: new ObservedProvider({ embedder, ranking: "vector" }),
    });
    await agent.run("I live in Lisbon.");
    await agent.run("Where do I live?");
    expect(recallTokens).toHaveLength(2);
    const usage = await store.getUsage({ sessionId: "recall" });
    expect(usage.modelCalls).toBe(spent.length + recallTokens.length);
    expect(usage.inputTokens).toBe(
      spent.reduce((sum, call) => sum + call.usage.inputTokens, 0) + recallTokens.reduce((sum, n) => sum + n, 0),
    );
  });

  it("costs nothing without pricing, and refuses a bad price at construction", () => {
    const model = new MockLanguageModel({ responses: [] });
    expect(() => new Agent({ model, pricing: { "gpt-4o": { inputPerMillion: 1 } } as never })).toThrow(
      /pricing\["gpt-4o"\]\.outputPerMillion is required/,
    );
    expect(
      () =>
        new Agent({ model, pricing: { "gpt-4o": { inputPerMillion: 1, outputPerMillion: 2, cached: 1 } } as never }),
    ).toThrow(/has no field "cached"/);
    const refused = (() => {
      try {
        new Agent({ model, pricing: { m: { inputPerMillion: -1, outputPerMillion: 2 } } });
      } catch (error) {
        return error;
      }
    })();
    expect(InvalidArgumentError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ argument: 'pricing["m"].inputPerMillion' });
    expect(resolvePricing(undefined)).toBeUndefined();
    expect(() => new Agent({ model, pricing: [] as never })).toThrow(InvalidArgumentError);
  });
});
