import { describe, expect, it, vi } from "vitest";
import { Agent } from "../../src/agent/agent";
import { MissingApiKeyError } from "../../src/errors/missing-api-key-error";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { ANTHROPIC_MODEL_ALIASES, defaultAnthropicMaxTokens } from "../../src/models/anthropic/anthropic-model-ids";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { anthropicError, anthropicMessage, anthropicStream } from "../servers/wire-formats";
import { abortAtFirstDelta, abortWhileWaiting, expectAPICallError, runFailure } from "../helpers/provider-failures";
import { runOrStream, weather, weatherSchema, weatherToolAnswers } from "./helpers";

startFakeLlmServerPerTest();

const provider = (options: { maxRetries?: number } = {}) =>
  createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url, ...options });

describe("anthropic provider (Messages API on the official SDK, loopback server)", () => {
  it("answers with text, the system prompt top-level, a short name mapped and a default max_tokens", async () => {
    server.enqueue(anthropicMessage({ text: "Hello from Claude.", usage: { inputTokens: 11, outputTokens: 4 } }));
    const model = provider()("claude-3-5-sonnet");
    expect(model.modelId).toBe(ANTHROPIC_MODEL_ALIASES["claude-3-5-sonnet"]);
    const agent = new Agent({ model, systemPrompt: "You are terse.", temperature: 0 });
    const result = await agent.run("Hi");

    expect(result.text).toBe("Hello from Claude.");
    expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 4, totalTokens: 15 });
    expect(result.finishReason).toBe("stop");
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/messages");
    expect(request!.headers.authorization).toBe("Bearer sk-ant-test");
    expect(request!.headers["anthropic-version"]).toBeTruthy();
    expect(request!.body).toEqual({
      model: "claude-sonnet-5-5",
      max_tokens: defaultAnthropicMaxTokens("claude-sonnet-5-5"),
      // Prompt caching (on by default): breakpoints after the instructions and the last message.
      system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }],
      temperature: 0,
    });
  });

  it("streams text deltas and reads usage from message_start and message_delta", async () => {
    server.enqueue(anthropicStream({ text: "Streaming from Claude.", usage: { inputTokens: 9, outputTokens: 6 } }));
    const agent = new Agent({ model: provider()("claude-sonnet-4"), maxOutputTokens: 256 });
    const stream = agent.stream("Stream please");
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    const result = await stream.response;

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Streaming from Claude.");
    expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 6, totalTokens: 15 });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, max_tokens: 256 });
    expect(server.requests[0]!.body.system).toBeUndefined();
  });

  it.each(["run", "stream"] as const)(
    "runs tool calls across steps with each step's results in one user message (%s)",
    async (mode) => {
      const answers = weatherToolAnswers("toolu_", "Checking two more.");
      for (const answer of answers) server.enqueue(mode === "run" ? anthropicMessage(answer) : anthropicStream(answer));
      const agent = new Agent({
        model: provider()("claude-sonnet-5-5"),
        systemPrompt: "Use tools.",
        tools: { get_weather: weather },
      });
      const result = await runOrStream(agent, mode, "Weather in Tokyo, Oslo, Rome?");

      expect(result.text).toBe("Tokyo 22°C, Oslo 4°C, Rome 22°C.");
      expect(result.toolCalls).toEqual([
        { id: "toolu_a", name: "get_weather", arguments: { city: "Tokyo" } },
        { id: "toolu_b", name: "get_weather", arguments: { city: "Oslo" } },
        { id: "toolu_c", name: "get_weather", arguments: { city: "Rome" } },
      ]);
      expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 36, totalTokens: 156 });
      expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "tool-calls", "stop"]);
      expect(server.requests).toHaveLength(3);
      expect(server.requests[0]!.body.tools).toEqual([
        { name: "get_weather", description: "Current weather in a city", input_schema: weatherSchema },
      ]);
      expect(server.requests[2]!.body.system).toEqual([
        { type: "text", text: "Use tools.", cache_control: { type: "ephemeral" } },
      ]);
      const cached = { cache_control: { type: "ephemeral" } };
      expect(server.requests[2]!.body.messages).toEqual([
        { role: "user", content: [{ type: "text", text: "Weather in Tokyo, Oslo, Rome?" }] },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_a", name: "get_weather", input: { city: "Tokyo" } }],
        },
        {
          role: "user",
          // The end of the previous request: read from the cache.
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_a",
              content: '{"city":"Tokyo","temperature":"22°C"}',
              ...cached,
            },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking two more." },
            { type: "tool_use", id: "toolu_b", name: "get_weather", input: { city: "Oslo" } },
            { type: "tool_use", id: "toolu_c", name: "get_weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_b", content: '{"city":"Oslo","temperature":"4°C"}' },
            { type: "tool_result", tool_use_id: "toolu_c", content: '{"city":"Rome","temperature":"22°C"}', ...cached },
          ],
        },
      ]);
    },
  );

  it("emits tool-call-delta parts and a whole tool-call at content_block_stop", async () => {
    server.enqueue(
      anthropicStream({
        text: "One moment.",
        toolCalls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Lima" } }],
      }),
    );
    const parts = [];
    for await (const part of provider()("claude-haiku-5-5").doStream({
      messages: [{ role: "user", content: "go" }],
      tools: [],
    }))
      parts.push(part);
    const deltas = parts.filter((part) => part.type === "tool-call-delta");
    expect(deltas.map((part) => part.argumentsDelta).join("")).toBe('{"city":"Lima"}');
    expect(deltas.every((part) => part.toolCallId === "toolu_1" && part.toolName === "get_weather")).toBe(true);
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([
      { type: "tool-call", toolCall: { id: "toolu_1", name: "get_weather", arguments: { city: "Lima" } } },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls", response: { id: "msg_test" } });
  });

  it("merges consecutive user messages (after an aborted turn) into one", async () => {
    const store = new InMemoryStore();
    await store.setMessages("s1", [
      { id: "m1", role: "user", content: "First question, never answered.", timestamp: 1 },
    ]);
    server.enqueue(anthropicMessage({ text: "Answering both." }));
    const agent = new Agent({ model: provider()("claude-sonnet-5-5"), memoryStore: store, sessionId: "s1" });
    await agent.run("Second question.");
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "First question, never answered." },
          { type: "text", text: "Second question.", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  it("turns a 400 into an APICallError and does not retry it", async () => {
    server.enqueue(anthropicError(400, "messages: roles must alternate"));
    const agent = new Agent({ model: provider()("claude-sonnet-5-5") });
    const error = await runFailure(agent);
    expectAPICallError(error, 400, false);
    expect(error.provider).toBe("anthropic");
    expect(error.modelId).toBe("claude-sonnet-5-5");
    expect(error.responseBody).toContain("roles must alternate");
    expect(server.requests).toHaveLength(1);
  });

  it("lets the SDK retry a 429 after retry-after", async () => {
    server.enqueue(
      anthropicError(429, "Rate limited.", { "retry-after": "1" }),
      anthropicMessage({ text: "after the wait" }),
    );
    const agent = new Agent({ model: provider()("claude-sonnet-5-5") });
    const started = Date.now();
    const result = await agent.run("Hi");
    expect(result.text).toBe("after the wait");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });

  it("surfaces a 429 as a retryable APICallError with maxRetries: 0", async () => {
    server.enqueue(anthropicError(429, "Rate limited.", { "retry-after": "1" }), anthropicMessage({ text: "never" }));
    const agent = new Agent({ model: provider()("claude-sonnet-5-5"), maxRetries: 0 });
    expectAPICallError(await runFailure(agent), 429, true);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 500 maxRetries times, then fails with a typed error", async () => {
    const fast = { "retry-after-ms": "10" };
    server.enqueue(anthropicError(500, "internal", fast), anthropicError(500, "internal", fast));
    const agent = new Agent({ model: provider({ maxRetries: 1 })("claude-sonnet-5-5") });
    expectAPICallError(await runFailure(agent), 500, true);
    expect(server.requests).toHaveLength(2);
  });

  it("aborts mid-stream: the run rejects with AbortError and the HTTP request is closed", async () => {
    server.enqueue(anthropicStream({ text: "A long answer that never finishes." }, { hang: true }));
    const agent = new Agent({ model: provider()("claude-sonnet-5-5") });
    const { received } = await abortAtFirstDelta(agent, "Talk");
    expect(received.length).toBeGreaterThan(0);
    await server.waitForEarlyClose();
    expect(server.closedEarly).toBe(1);
  });

  it("passes the abort signal to the HTTP request while waiting for an answer", async () => {
    await abortWhileWaiting(server, new Agent({ model: provider()("claude-sonnet-5-5") }));
  });

  it("raises MissingApiKeyError naming ANTHROPIC_API_KEY at the first call", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_AUTH_TOKEN", "");
    try {
      const agent = new Agent({ model: createAnthropic({ baseURL: server.url })("claude-sonnet-5-5") });
      const error = await runFailure<MissingApiKeyError>(agent);
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
      expect(error.provider).toBe("anthropic");
      expect(error.environmentVariable).toBe("ANTHROPIC_API_KEY");
      expect(error.message).toContain("ANTHROPIC_API_KEY");
      expect(server.requests).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("lets the short-name table and default max_tokens be overridden per provider", async () => {
    server.enqueue(anthropicMessage({ text: "ok" }));
    const custom = createAnthropic({
      apiKey: "k",
      baseURL: server.url,
      modelAliases: { fast: "claude-haiku-5-5", "claude-3-5-sonnet": "claude-3-5-sonnet" },
      defaultMaxTokens: 1000,
    });
    expect(custom("claude-3-5-sonnet").modelId).toBe("claude-3-5-sonnet");
    expect(custom("claude-opus").modelId).toBe(ANTHROPIC_MODEL_ALIASES["claude-opus"]);
    await new Agent({ model: custom("fast") }).run("Hi");
    expect(server.requests[0]!.body).toMatchObject({ model: "claude-haiku-5-5", max_tokens: 1000 });
  });
});
