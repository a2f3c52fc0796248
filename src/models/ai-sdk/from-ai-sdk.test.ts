import type { LanguageModelV2, LanguageModelV2CallOptions } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { MockLanguageModelV4 } from "ai-v7/test";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { isToolPairingValid } from "../../messages/validate-tool-pairing";
import { InMemoryStore } from "../../stores/in-memory-store";
import { streamText } from "../../streaming/stream-text";
import { SummaryMemory } from "../../strategies/summary-memory";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { registerProvider, resolveLanguageModel, unregisterProvider } from "../registry/model-registry";
import { fromAISDK } from "./from-ai-sdk";

const usageV2 = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
});
const usageV3 = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

type V2Generate = Awaited<ReturnType<LanguageModelV2["doGenerate"]>>;
type V2Stream = Awaited<ReturnType<LanguageModelV2["doStream"]>>;

/**
 * A spec v2 model (`ai` 5 provider packages) answering from a script and recording its calls, as
 * `ai@5`'s `MockLanguageModelV2` does (that one cannot be loaded here: its test entry needs msw).
 * Typed with `@ai-sdk/provider`'s own `LanguageModelV2`.
 */
class MockLanguageModelV2 implements LanguageModelV2 {
  readonly specificationVersion = "v2";
  readonly provider = "mock-v2";
  readonly modelId = "mock-v2-model";
  readonly supportedUrls = {};
  readonly doGenerateCalls: LanguageModelV2CallOptions[] = [];
  readonly doStreamCalls: LanguageModelV2CallOptions[] = [];
  private readonly generate: V2Generate[];
  private readonly streams: V2Stream[];

  constructor(script: { doGenerate?: V2Generate | V2Generate[]; doStream?: V2Stream | V2Stream[] }) {
    this.generate = script.doGenerate === undefined ? [] : [script.doGenerate].flat();
    this.streams = script.doStream === undefined ? [] : [script.doStream].flat();
  }

  async doGenerate(options: LanguageModelV2CallOptions): Promise<V2Generate> {
    this.doGenerateCalls.push(options);
    return this.generate[this.doGenerateCalls.length - 1]!;
  }

  async doStream(options: LanguageModelV2CallOptions): Promise<V2Stream> {
    this.doStreamCalls.push(options);
    return this.streams[this.doStreamCalls.length - 1]!;
  }
}

describe("AI SDK v2 models (ai 5 provider packages)", () => {
  it("runs a tool loop with doGenerate: flat usage, string finish reasons, stored and paired", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModelV2({
      doGenerate: [
        {
          content: [
            {
              type: "tool-call",
              toolCallId: "v2_call",
              toolName: "remember_fact",
              input: '{"key":"language","value":"TypeScript"}',
            },
          ],
          finishReason: "tool-calls",
          usage: usageV2(15, 6),
          warnings: [],
        },
        {
          content: [{ type: "text", text: "Noted." }],
          finishReason: "unknown",
          usage: { inputTokens: 25, outputTokens: 2, totalTokens: undefined },
          warnings: [],
        },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "v2", enableMemoryTools: true });
    const result = await agent.run("Remember that I prefer TypeScript.");

    expect(result.text).toBe("Noted.");
    expect(result.finishReason).toBe("other");
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 8, totalTokens: 48 });
    expect(await store.getFacts("session:v2")).toEqual([
      expect.objectContaining({ key: "language", value: "TypeScript" }),
    ]);
    const stored = await store.getMessages("v2");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(isToolPairingValid(stored)).toBe(true);
    expect(model.doGenerateCalls[1]!.prompt.at(-1)).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "v2_call", toolName: "remember_fact", output: { type: "text" } }],
    });
  });

  it("streams with v2 parts", async () => {
    const model = new MockLanguageModelV2({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: "text-start", id: "1" },
          { type: "text-delta", id: "1", delta: "Hi " },
          { type: "text-delta", id: "1", delta: "you." },
          { type: "text-end", id: "1" },
          { type: "finish", finishReason: "stop", usage: usageV2(4, 2) },
        ]),
      },
    });
    const stream = new Agent({ model }).stream("Hello");
    expect(await stream.text).toBe("Hi you.");
    expect((await stream.response).usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6 });
  });
});

describe("fromAISDK and model detection", () => {
  afterEach(() => {
    unregisterProvider("aisdk-test");
  });

  it("passes headers and providerOptions of fromAISDK to every call", async () => {
    const aiModel = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "ok" }],
        finishReason: { unified: "stop", raw: undefined },
        usage: usageV3(1, 1),
        warnings: [],
      },
    });
    const model = fromAISDK(aiModel, {
      headers: { "x-team": "memory" },
      providerOptions: { openai: { reasoningEffort: "low" } },
    });
    await new Agent({ model }).run("hi");
    expect(aiModel.doGenerateCalls[0]).toMatchObject({
      headers: { "x-team": "memory" },
      providerOptions: { openai: { reasoningEffort: "low" } },
    });
  });

  it("tells AI SDK models from agentcore models and refuses other specification versions", () => {
    const agentcoreModel = new MockLanguageModel({ responses: [] });
    expect(resolveLanguageModel(agentcoreModel)).toBe(agentcoreModel);
    expect(fromAISDK(agentcoreModel)).toBe(agentcoreModel);
    const wrapped = resolveLanguageModel(
      new MockLanguageModelV3({ provider: "google.generative-ai", modelId: "gemini-2.5-flash" }),
    );
    expect(wrapped).toMatchObject({ provider: "google", modelId: "gemini-2.5-flash" });
    const v1 = {
      specificationVersion: "v1",
      provider: "old",
      modelId: "m",
      doGenerate: async () => ({}),
      doStream: async () => ({}),
    };
    expect(() => new Agent({ model: v1 as never })).toThrow(InvalidArgumentError);
    expect(() => new Agent({ model: v1 as never })).toThrow(/specification "v1".*"v2".*"v3".*"v4"/);
    const v5 = { ...v1, specificationVersion: "v5" };
    expect(() => new Agent({ model: v5 as never })).toThrow(
      /specification "v5".*"v4" \(ai 7, e\.g\. @ai-sdk\/openai 4\)/,
    );
    expect(() => fromAISDK({} as never)).toThrow(InvalidArgumentError);
  });

  it("lets a registered provider factory return AI SDK models, so strings resolve to them", async () => {
    const made: MockLanguageModelV3[] = [];
    registerProvider("aisdk-test", (modelId) => {
      const model = new MockLanguageModelV3({
        modelId,
        doGenerate: {
          content: [{ type: "text", text: `from ${modelId}` }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: usageV3(1, 1),
          warnings: [],
        },
      });
      made.push(model);
      return model;
    });
    expect((await new Agent({ model: "aisdk-test/flash" }).run("hi")).text).toBe("from flash");
    expect(made).toHaveLength(1);
  });

  it("takes an AI SDK model as SummaryMemory's summariser", async () => {
    const summariser = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "The user likes tea." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageV3(50, 6),
        warnings: [],
      },
    });
    const chat = new MockLanguageModel({ responses: (call) => ({ text: `ok ${call.messages.length}` }) });
    const agent = new Agent({
      model: chat,
      memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2, model: summariser }),
      sessionId: "sum",
    });
    for (const input of ["I like tea.", "And biscuits.", "Also walks.", "What do I like?"]) await agent.run(input);
    expect(summariser.doGenerateCalls.length).toBeGreaterThan(0);
    expect(chat.calls.at(-1)!.system).toContain("The user likes tea.");
  });

  it("streams through streamText into a stored session", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Bonjour" },
          { type: "text-delta", id: "t", delta: " !" },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usageV3(9, 2) },
        ]),
      },
    });
    const result = streamText({
      model,
      memoryStore: store,
      sessionId: "ui",
      messages: [{ role: "user", content: "Salut" }],
    });
    const body = await result.toUIMessageStreamResponse().text();
    expect(body).toContain('"delta":"Bonjour"');
    expect((await store.getMessages("ui")).map((message) => [message.role, message.content])).toEqual([
      ["user", "Salut"],
      ["assistant", "Bonjour !"],
    ]);
    expect(model.doStreamCalls[0]!.prompt).toEqual([{ role: "user", content: [{ type: "text", text: "Salut" }] }]);
  });
});

describe("AI SDK v4 models (ai 7 provider packages, MockLanguageModelV4)", () => {
  it("streams reasoning, tool calls and nested usage; skips v4's custom and reasoning-file parts", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModelV4({
      provider: "mock.responses",
      modelId: "mock-v4",
      doStream: [
        {
          stream: convertArrayToReadableStream([
            { type: "stream-start", warnings: [] },
            { type: "reasoning-start", id: "r", providerMetadata: { mock: { itemId: "rs_1" } } },
            { type: "reasoning-delta", id: "r", delta: "Need the fact." },
            { type: "reasoning-file", mediaType: "image/png", data: { type: "data", data: "AAAA" } },
            { type: "reasoning-end", id: "r", providerMetadata: { mock: { signature: "sig" } } },
            { type: "custom", kind: "mock.note", providerMetadata: { mock: {} } },
            { type: "tool-input-start", id: "v4_call", toolName: "remember_fact" },
            { type: "tool-input-delta", id: "v4_call", delta: '{"key":"tea","value":"green"}' },
            { type: "tool-input-end", id: "v4_call" },
            {
              type: "tool-call",
              toolCallId: "v4_call",
              toolName: "remember_fact",
              input: '{"key":"tea","value":"green"}',
            },
            {
              type: "finish",
              finishReason: { unified: "tool-calls", raw: "tool_calls" },
              usage: {
                inputTokens: { total: 40, noCache: 10, cacheRead: 30, cacheWrite: undefined },
                outputTokens: { total: 12, text: 4, reasoning: 8 },
              },
            },
          ]),
        },
        {
          stream: convertArrayToReadableStream([
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Noted: green tea." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "length", raw: "max_tokens" }, usage: usageV3(50, 5) },
          ]),
        },
      ],
    });
    expect(model.specificationVersion).toBe("v4");
    const agent = new Agent({ model, enableMemoryTools: true, memoryStore: store, sessionId: "v4" });
    const result = await agent.stream("Remember I like green tea.").response;

    expect(result.text).toBe("Noted: green tea.");
    expect(result.finishReason).toBe("length");
    expect(result.toolCalls).toEqual([
      expect.objectContaining({ id: "v4_call", name: "remember_fact", arguments: { key: "tea", value: "green" } }),
    ]);
    expect(result.usage).toEqual({
      inputTokens: 90,
      outputTokens: 17,
      totalTokens: 107,
      cachedInputTokens: 30,
      reasoningTokens: 8,
    });
    expect(await store.getFacts("session:v4")).toEqual([expect.objectContaining({ key: "tea", value: "green" })]);
    const stored = await store.getMessages("v4");
    expect(isToolPairingValid(stored)).toBe(true);
    expect(stored[1]).toMatchObject({
      role: "assistant",
      content: [
        {
          type: "reasoning",
          text: "Need the fact.",
          providerOptions: { mock: { itemId: "rs_1", signature: "sig" } },
        },
      ],
    });
    const secondPrompt = model.doStreamCalls[1]!.prompt;
    expect(secondPrompt[2]).toMatchObject({
      role: "assistant",
      content: [
        { type: "reasoning", text: "Need the fact.", providerOptions: { mock: { itemId: "rs_1", signature: "sig" } } },
        { type: "tool-call", toolCallId: "v4_call", toolName: "remember_fact", input: { key: "tea", value: "green" } },
      ],
    });
  });
});
