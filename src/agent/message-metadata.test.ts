// Metadata on every stored assistant message (docs/messages.md, "Message metadata"): agentcore's
// model, usage, finish reason and duration, the app's run({ metadata }) fields beside them, checked;
// never in what a model receives.
import * as ai6Test from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage, AssistantMessage } from "../messages/agent-message";
import type { LanguageModel, LanguageModelUsage } from "../models/language-model";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { convertToUIMessages } from "../ui/convert-to-ui-messages";
import { weather } from "./__fixtures__/run-fixtures";
import { Agent } from "./agent";

afterEach(() => {
  vi.useRealTimers();
});

/** A tool step, then the answer. */
function weatherModel() {
  return new MockLanguageModel({
    responses: [
      {
        toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Tokyo" } }],
        usage: { inputTokens: 8, outputTokens: 3 },
      },
      { text: "22°C.", usage: { inputTokens: 12, outputTokens: 4 } },
    ],
  });
}

const assistants = (messages: AgentMessage[]) =>
  messages.filter((message): message is AssistantMessage => message.role === "assistant");

describe.each(["run", "stream"] as const)("metadata of the messages an agent stores (%s)", (mode) => {
  const run = (agent: Agent, options: Parameters<Agent["run"]>[0] & object) =>
    mode === "run" ? agent.run(options) : agent.stream(options).response;

  it("gives each assistant message its step's model, usage, finish reason and duration, and the app's fields", async () => {
    const store = new InMemoryStore();
    const agent = new Agent({
      model: weatherModel(),
      memoryStore: store,
      sessionId: "s",
      tools: { get_weather: weather },
    });
    await run(agent, { input: "Weather in Tokyo?", metadata: { plan: "pro", request: { id: "r-1", retries: [0] } } });
    const stored = await store.getMessages("s");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const [first, last] = assistants(stored);
    expect(first!.metadata).toEqual({
      plan: "pro",
      request: { id: "r-1", retries: [0] },
      agentcore: {
        provider: "mock",
        modelId: "mock-model",
        usage: { inputTokens: 8, outputTokens: 3, totalTokens: 11 },
        finishReason: "tool-calls",
        durationMs: expect.any(Number),
      },
    });
    expect(last!.metadata).toMatchObject({
      plan: "pro",
      agentcore: { usage: { inputTokens: 12, outputTokens: 4, totalTokens: 16 }, finishReason: "stop" },
    });
    // Only assistant messages carry it.
    for (const message of stored.filter((message) => message.role !== "assistant"))
      expect(message).not.toHaveProperty("metadata");
  });

  it("never sends metadata to the model: not the step before in the same run, not the stored history of the next run", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "Tokyo" } }] },
        { text: "22°C." },
        { text: "You are welcome." },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { get_weather: weather } });
    await run(agent, { input: "Weather in Tokyo?", metadata: { secret: "app-only" } });
    await run(agent, { input: "Thanks" });
    expect(model.calls).toHaveLength(3);
    // The stored history the last call was made from holds two assistant messages with metadata.
    expect(assistants(await store.getMessages("s")).every((message) => message.metadata !== undefined)).toBe(true);
    expect(model.calls[2]!.messages.filter((message) => message.role === "assistant")).toHaveLength(2);
    for (const call of model.calls) {
      for (const message of call.messages) expect(message).not.toHaveProperty("metadata");
      expect(JSON.stringify(call)).not.toContain("app-only");
    }
  });

  it("measures the model call's duration", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const mock = new MockLanguageModel({ responses: [{ text: "Done." }] });
    // A model whose call takes 250 ms by the clock.
    const slow: LanguageModel = {
      provider: mock.provider,
      modelId: mock.modelId,
      doGenerate: async (call) => {
        vi.setSystemTime(Date.now() + 250);
        return mock.doGenerate(call);
      },
      async *doStream(call) {
        vi.setSystemTime(Date.now() + 250);
        yield* mock.doStream(call);
      },
    };
    const store = new InMemoryStore();
    await run(new Agent({ model: slow, memoryStore: store, sessionId: "s" }), { input: "Go" });
    expect(assistants(await store.getMessages("s"))[0]!.metadata?.agentcore?.durationMs).toBe(250);
  });

  it("keeps only the usage counts that are JSON, so a model's undefined or NaN never makes the history unreadable", async () => {
    const mock = new MockLanguageModel({ responses: [{ text: "Done.", usage: { inputTokens: 4, outputTokens: 2 } }] });
    const sloppy = (usage: LanguageModelUsage): LanguageModelUsage =>
      ({ ...usage, cachedInputTokens: undefined, reasoningTokens: Number.NaN }) as unknown as LanguageModelUsage;
    const model: LanguageModel = {
      provider: mock.provider,
      modelId: mock.modelId,
      doGenerate: async (call) => {
        const result = await mock.doGenerate(call);
        return { ...result, usage: sloppy(result.usage) };
      },
      async *doStream(call) {
        for await (const part of mock.doStream(call))
          yield part.type === "finish" ? { ...part, usage: sloppy(part.usage) } : part;
      },
    };
    const store = new InMemoryStore();
    await run(new Agent({ model, memoryStore: store, sessionId: "s" }), { input: "Go" });
    expect(assistants(await store.getMessages("s"))[0]!.metadata?.agentcore?.usage).toEqual({
      inputTokens: 4,
      outputTokens: 2,
      totalTokens: 6,
    });
    expect(convertToUIMessages(await store.getMessages("s"))[1]!.metadata?.agentcore?.usage).toEqual({
      inputTokens: 4,
      outputTokens: 2,
      totalTokens: 6,
    });
  });

  it("keeps the reasoning tokens an AI SDK model reports, in the step's usage and the run's", async () => {
    const model = new ai6Test.MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "42" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 10, noCache: 4, cacheRead: 6, cacheWrite: 0 },
          outputTokens: { total: 30, text: 5, reasoning: 25 },
        },
        warnings: [],
      },
      doStream: {
        stream: ai6Test.convertArrayToReadableStream([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "42" },
          { type: "text-end", id: "t" },
          {
            type: "finish",
            finishReason: { unified: "stop", raw: "stop" },
            usage: {
              inputTokens: { total: 10, noCache: 4, cacheRead: 6, cacheWrite: 0 },
              outputTokens: { total: 30, text: 5, reasoning: 25 },
            },
          },
        ]) as never,
      },
    });
    const store = new InMemoryStore();
    const result = await run(new Agent({ model, memoryStore: store, sessionId: "s" }), { input: "Think" });
    const usage = { inputTokens: 10, outputTokens: 30, totalTokens: 40, cachedInputTokens: 6, reasoningTokens: 25 };
    expect(result.usage).toEqual(usage);
    expect(assistants(await store.getMessages("s"))[0]!.metadata?.agentcore).toMatchObject({
      provider: model.provider,
      modelId: model.modelId,
      usage,
    });
  });

  it("comes back from convertToUIMessages after a reload: the steps folded, usage summed, the last finish reason", async () => {
    const store = new InMemoryStore();
    const agent = new Agent({
      model: weatherModel(),
      memoryStore: store,
      sessionId: "s",
      tools: { get_weather: weather },
    });
    await run(agent, { input: "Weather in Tokyo?", metadata: { plan: "pro" } });
    const [user, answer] = convertToUIMessages(await store.getMessages("s"));
    expect(user!.metadata).toEqual({ agentcore: { ids: expect.any(Array), timestamps: expect.any(Array) } });
    expect(answer!.metadata).toMatchObject({
      plan: "pro",
      agentcore: {
        provider: "mock",
        modelId: "mock-model",
        finishReason: "stop",
        usage: { inputTokens: 20, outputTokens: 7, totalTokens: 27 },
        steps: [{ finishReason: "tool-calls" }, { finishReason: "stop" }],
      },
    });
  });
});

describe("run({ metadata }) checked", () => {
  const bad: [string, unknown][] = [
    ["not an object", "pro"],
    ["an array", ["pro"]],
    ["null", null],
    ["a class instance", new Map([["plan", "pro"]])],
    ["a Date inside", { at: new Date(0) }],
    ["a function inside", { call: () => 1 }],
    ["undefined inside", { plan: undefined }],
    ["a BigInt inside", { count: 1n }],
    ["NaN inside", { score: Number.NaN }],
    ["Infinity inside", { list: [1, Number.POSITIVE_INFINITY] }],
    ["a __proto__ key", JSON.parse('{"nested": {"__proto__": {"admin": true}}}')],
    ["a constructor key", { constructor: "x" }],
    ["agentcore's reserved key", { agentcore: { modelId: "forged" } }],
    ["nested too deep", JSON.parse(`{"deep":${"[".repeat(40)}${"]".repeat(40)}}`)],
    ["over 16 KiB", { blob: "x".repeat(16 * 1024) }],
  ];

  it.each(bad)(
    "refuses %s with an InvalidArgumentError before anything is stored or called",
    async (_name, metadata) => {
      const store = new InMemoryStore();
      const model = new MockLanguageModel({ responses: [{ text: "never" }] });
      const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
      const error = await agent
        .run({ input: "Hi", metadata: metadata as Record<string, unknown> })
        .catch((caught) => caught);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe("metadata");
      expect((error as Error).message).toMatch(/^metadata/);
      expect(model.calls).toHaveLength(0);
      expect(await store.getMessages("s")).toEqual([]);
    },
  );

  it("takes JSON at the limit, and stores a copy: changing the object after the run changes nothing stored", async () => {
    const store = new InMemoryStore();
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "ok" }] }),
      memoryStore: store,
      sessionId: "s",
    });
    // {"blob":"…"} is 11 bytes of JSON around the string.
    const metadata = { blob: "x".repeat(16 * 1024 - 11), list: [] as number[] };
    metadata.blob = metadata.blob.slice(0, -"list".length - 6);
    await agent.run({ input: "Hi", metadata });
    metadata.list.push(1);
    const [answer] = assistants(await store.getMessages("s"));
    expect(answer!.metadata!.list).toEqual([]);
    expect(JSON.stringify({ blob: answer!.metadata!.blob, list: [] }).length).toBe(16 * 1024);
  });
});
