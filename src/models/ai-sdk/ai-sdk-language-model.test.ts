import { APICallError as AISDKAPICallError } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent/agent";
import { AbortError } from "../../errors/abort-error";
import { APICallError } from "../../errors/api-call-error";
import { isToolPairingValid } from "../../messages/validate-tool-pairing";
import { InMemoryStore } from "../../stores/in-memory-store";
import { tool } from "../../tools/tool";
import { convertToAISDKPrompt } from "./convert-to-ai-sdk-prompt";

// Tests through the model boundary with the AI SDK's own mock model (spec v3, `ai` 6): the
// agent's calls reach it as AI SDK call options, and its answers come back as agentcore results.

const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: city === "Oslo" ? "4°C" : "22°C" }),
});

const usageV3 = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});
const stop = { unified: "stop" as const, raw: "stop" };
const toolCalls = { unified: "tool-calls" as const, raw: "tool_calls" };

describe("AI SDK v3 models (MockLanguageModelV3) as agentcore models", () => {
  it("answers with text, sends system, user text, call settings and reports v3 usage", async () => {
    const model = new MockLanguageModelV3({
      provider: "mock.chat",
      modelId: "mock-1",
      doGenerate: {
        content: [
          { type: "reasoning", text: "thinking" },
          { type: "text", text: "Hello " },
          { type: "text", text: "there." },
        ],
        finishReason: stop,
        usage: usageV3(12, 3),
        response: { id: "resp_1", modelId: "mock-1-0425" },
        warnings: [],
      },
    });
    const agent = new Agent({ model, systemPrompt: "Be terse.", temperature: 0.3, maxOutputTokens: 50 });
    expect(agent.model.provider).toBe("mock");
    expect(agent.model.modelId).toBe("mock-1");
    const result = await agent.run("Hi");

    expect(result.text).toBe("Hello there.");
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
    expect(result.finishReason).toBe("stop");
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0]!;
    expect(call.prompt).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: [{ type: "text", text: "Hi" }] },
    ]);
    expect(call.temperature).toBe(0.3);
    expect(call.maxOutputTokens).toBe(50);
    expect(call.tools).toBeUndefined();
  });

  it("runs tool calls through a full Agent run: results stored, paired and sent back as tool-result parts", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: "tool-call", toolCallId: "call_a", toolName: "get_weather", input: '{"city":"Oslo"}' },
            { type: "tool-call", toolCallId: "call_b", toolName: "get_weather", input: '{"city":"Rome"}' },
          ],
          finishReason: toolCalls,
          usage: usageV3(20, 8),
          warnings: [],
        },
        {
          content: [{ type: "text", text: "Oslo 4°C, Rome 22°C." }],
          finishReason: stop,
          usage: usageV3(40, 9),
          warnings: [],
        },
        {
          content: [{ type: "text", text: "You asked about Oslo and Rome." }],
          finishReason: stop,
          usage: usageV3(60, 7),
          warnings: [],
        },
      ],
    });
    const agent = new Agent({
      model,
      tools: { get_weather: weather },
      memoryStore: store,
      sessionId: "tools",
      maxSteps: 3,
    });
    const result = await agent.run("Weather in Oslo and Rome?");

    expect(result.text).toBe("Oslo 4°C, Rome 22°C.");
    expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 17, totalTokens: 77 });
    expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ city: "Oslo" }, { city: "Rome" }]);
    const first = model.doGenerateCalls[0]!;
    expect(first.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Current weather in a city",
        inputSchema: expect.objectContaining({
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        }),
      },
    ]);
    expect(first.toolChoice).toEqual({ type: "auto" });
    expect(model.doGenerateCalls[1]!.prompt.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "call_a", toolName: "get_weather", input: { city: "Oslo" } },
          { type: "tool-call", toolCallId: "call_b", toolName: "get_weather", input: { city: "Rome" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_a",
            toolName: "get_weather",
            output: { type: "text", value: '{"city":"Oslo","temperature":"4°C"}' },
          },
          {
            type: "tool-result",
            toolCallId: "call_b",
            toolName: "get_weather",
            output: { type: "text", value: '{"city":"Rome","temperature":"22°C"}' },
          },
        ],
      },
    ]);

    const stored = await store.getMessages("tools");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(isToolPairingValid(stored)).toBe(true);

    // The next run sends the stored history back: the pairs survive the store round-trip.
    await agent.run("What did I ask?");
    const replay = model.doGenerateCalls[2]!.prompt;
    expect(replay.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(replay[2]).toEqual(model.doGenerateCalls[1]!.prompt[2]);
  });

  it("streams text, reasoning and tool-call parts, and takes usage from the finish part", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: convertArrayToReadableStream([
            { type: "stream-start", warnings: [] },
            { type: "response-metadata", id: "resp_s1", modelId: "mock-s" },
            { type: "reasoning-start", id: "r" },
            { type: "reasoning-delta", id: "r", delta: "hmm" },
            { type: "reasoning-delta", id: "r", delta: "", providerMetadata: { anthropic: { signature: "sig" } } },
            { type: "reasoning-end", id: "r" },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Let me " },
            { type: "text-delta", id: "t", delta: "check." },
            { type: "text-end", id: "t" },
            { type: "tool-input-start", id: "call_s", toolName: "get_weather" },
            { type: "tool-input-delta", id: "call_s", delta: '{"city":' },
            { type: "tool-input-delta", id: "call_s", delta: '"Oslo"}' },
            { type: "tool-input-end", id: "call_s" },
            { type: "tool-call", toolCallId: "call_s", toolName: "get_weather", input: '{"city":"Oslo"}' },
            { type: "finish", finishReason: toolCalls, usage: usageV3(30, 10) },
          ]),
        },
        {
          stream: convertArrayToReadableStream([
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Oslo: " },
            { type: "text-delta", id: "t", delta: "4°C." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: stop, usage: usageV3(50, 4) },
          ]),
        },
      ],
    });
    const agent = new Agent({ model, tools: { get_weather: weather }, memoryStore: store, sessionId: "stream" });
    const stream = agent.stream("Weather in Oslo?");
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    const result = await stream.response;

    expect(deltas).toEqual(["Let me ", "check.", "Oslo: ", "4°C."]);
    expect(result.text).toBe("Oslo: 4°C.");
    expect(result.usage).toEqual({ inputTokens: 80, outputTokens: 14, totalTokens: 94 });
    expect(result.steps[0]!.finishReason).toBe("tool-calls");
    expect(result.toolCalls).toEqual([
      expect.objectContaining({ id: "call_s", name: "get_weather", arguments: { city: "Oslo" } }),
    ]);
    const stored = await store.getMessages("stream");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const reasoning = { type: "reasoning", text: "hmm", providerOptions: { anthropic: { signature: "sig" } } };
    expect(stored[1]).toMatchObject({
      content: [reasoning, { type: "text", text: "Let me check." }],
      toolCalls: [{ id: "call_s", name: "get_weather", arguments: { city: "Oslo" } }],
    });
    expect(isToolPairingValid(stored)).toBe(true);
    // The reasoning goes back with its signature, before the text, in the tool loop's second call.
    expect(model.doStreamCalls[1]!.prompt[1]).toEqual({
      role: "assistant",
      content: [
        reasoning,
        { type: "text", text: "Let me check." },
        { type: "tool-call", toolCallId: "call_s", toolName: "get_weather", input: { city: "Oslo" } },
      ],
    });
  });

  it("maps the AI SDK's APICallError to agentcore's, with status and retryability, and retries what is retryable", async () => {
    const rateLimited = () =>
      new AISDKAPICallError({
        message: "Rate limit reached",
        url: "http://127.0.0.1/v1/chat/completions",
        requestBodyValues: {},
        statusCode: 429,
        responseHeaders: { "retry-after-ms": "1" },
        responseBody: '{"error":{"message":"Rate limit reached"}}',
      });
    let attempts = 0;
    const flaky = new MockLanguageModelV3({
      doGenerate: async () => {
        attempts++;
        if (attempts < 3) throw rateLimited();
        return { content: [{ type: "text", text: "finally" }], finishReason: stop, usage: usageV3(1, 1), warnings: [] };
      },
    });
    expect((await new Agent({ model: flaky }).run("hi")).text).toBe("finally");
    expect(attempts).toBe(3);

    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw rateLimited();
      },
    });
    const error = await new Agent({ model: failing, maxRetries: 1 }).run("hi").catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      provider: "mock-provider",
      modelId: "mock-model-id",
      statusCode: 429,
      isRetryable: true,
    });
    expect((error as APICallError).responseHeaders).toEqual({ "retry-after-ms": "1" });
    expect((error as APICallError).responseBody).toContain("Rate limit reached");
    expect(failing.doGenerateCalls).toHaveLength(2);

    const badRequest = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new AISDKAPICallError({ message: "Bad request", url: "u", requestBodyValues: {}, statusCode: 400 });
      },
    });
    await expect(new Agent({ model: badRequest }).run("hi")).rejects.toMatchObject({
      statusCode: 400,
      isRetryable: false,
    });
    expect(badRequest.doGenerateCalls).toHaveLength(1);
  });

  it("turns an error part in the stream into an APICallError", async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: "text-delta", id: "t", delta: "Part" },
          {
            type: "error",
            error: new AISDKAPICallError({
              message: "overloaded",
              url: "u",
              requestBodyValues: {},
              statusCode: 529,
              isRetryable: true,
            }),
          },
        ]),
      },
    });
    const error = await new Agent({ model }).stream("hi").response.catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 529, isRetryable: true });
  });

  it("aborts mid-stream: the stream is cancelled, the run ends with AbortError and the history stays sendable", async () => {
    const store = new InMemoryStore();
    let cancelled = false;
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          async pull(streamController) {
            await new Promise((resolve) => setTimeout(resolve, 2));
            streamController.enqueue({ type: "text-delta", id: "t", delta: "more " });
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
      doGenerate: {
        content: [{ type: "text", text: "Fresh." }],
        finishReason: stop,
        usage: usageV3(1, 1),
        warnings: [],
      },
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "abort" });
    const stream = agent.stream({ input: "Tell me a long story", signal: controller.signal });
    let received = 0;
    await expect(
      (async () => {
        for await (const _delta of stream.textStream) if (++received === 3) controller.abort();
      })(),
    ).rejects.toSatisfy(AbortError.isInstance);
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);
    expect(cancelled).toBe(true);
    expect(received).toBeLessThan(10);

    expect((await agent.run("Again")).text).toBe("Fresh.");
    const roles = model.doGenerateCalls[0]!.prompt.map((message) => message.role);
    expect(roles).toEqual(["user", "user"]);
  });

  it("aborts a pending doGenerate: the signal reaches the model and the run rejects with AbortError", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) =>
          abortSignal!.addEventListener("abort", () => reject(abortSignal!.reason), { once: true }),
        ),
    });
    const controller = new AbortController();
    const run = new Agent({ model }).run({ input: "hi", signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(run).rejects.toSatisfy(AbortError.isInstance);
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe("convertToAISDKPrompt", () => {
  it("keeps assistant text beside tool calls and splits tool results at a non-tool message", () => {
    expect(
      convertToAISDKPrompt(undefined, [
        { role: "user", content: "a" },
        { role: "assistant", content: "checking", toolCalls: [{ id: "1", name: "t", arguments: {} }] },
        { role: "tool", toolCallId: "1", name: "t", content: "ok" },
        { role: "assistant", content: "" },
        { role: "user", content: "b" },
      ]),
    ).toEqual([
      { role: "user", content: [{ type: "text", text: "a" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "checking" },
          { type: "tool-call", toolCallId: "1", toolName: "t", input: {} },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "1", toolName: "t", output: { type: "text", value: "ok" } }],
      },
      { role: "assistant", content: [{ type: "text", text: "" }] },
      { role: "user", content: [{ type: "text", text: "b" }] },
    ]);
  });
});
