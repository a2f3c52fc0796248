import { describe, expect, it, vi } from "vitest";
import { Agent } from "../../src/agent/agent";
import { AbortError } from "../../src/errors/abort-error";
import { APICallError } from "../../src/errors/api-call-error";
import { MissingApiKeyError } from "../../src/errors/missing-api-key-error";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { openaiCompletion, openaiError, openaiStream } from "../servers/wire-formats";
import { abortAtFirstDelta, abortWhileWaiting, expectAPICallError, runFailure } from "../helpers/provider-failures";
import {
  chatCompletionsWeatherTurns,
  runOrStream,
  weather,
  weatherToolAnswers,
  weatherSchema,
  withoutMeta,
} from "./helpers";

startFakeLlmServerPerTest();

const provider = (options: { maxRetries?: number } = {}) =>
  createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1`, ...options });

describe("openai provider (Chat Completions on the official SDK, loopback server)", () => {
  it("answers with text and sends the system prompt first", async () => {
    server.enqueue(openaiCompletion({ text: "Hello there!", usage: { inputTokens: 12, outputTokens: 3 } }));
    const agent = new Agent({
      model: provider()("gpt-4o-mini"),
      systemPrompt: "You are terse.",
      temperature: 0.2,
      maxOutputTokens: 100,
    });
    const result = await agent.run("Hi");

    expect(result.text).toBe("Hello there!");
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
    expect(result.finishReason).toBe("stop");
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBe("Bearer sk-test");
    expect(request!.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Hi" },
      ],
      max_completion_tokens: 100,
      temperature: 0.2,
    });
  });

  it("streams the answer in deltas and reads usage from the stream", async () => {
    server.enqueue(openaiStream({ text: "Streaming works fine.", usage: { inputTokens: 7, outputTokens: 4 } }));
    const agent = new Agent({ model: provider()("gpt-4o-mini") });
    const stream = agent.stream("Stream please");
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    const result = await stream.response;

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Streaming works fine.");
    expect(result.text).toBe("Streaming works fine.");
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 4, totalTokens: 11 });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(server.requests[0]!.body.messages).toEqual([{ role: "user", content: "Stream please" }]);
  });

  it.each(["run", "stream"] as const)("runs one and several tool calls across steps (%s)", async (mode) => {
    const answers = weatherToolAnswers("call_", "Checking two more.");
    for (const answer of answers) server.enqueue(mode === "run" ? openaiCompletion(answer) : openaiStream(answer));
    const agent = new Agent({
      model: provider()("gpt-4o-mini"),
      systemPrompt: "Use tools.",
      tools: { get_weather: weather },
    });
    const result = await runOrStream(agent, mode, "Weather in Tokyo, Oslo, Rome?");

    expect(result.text).toBe("Tokyo 22°C, Oslo 4°C, Rome 22°C.");
    expect(result.toolCalls.map((call) => call.id)).toEqual(["call_a", "call_b", "call_c"]);
    expect(result.toolCalls[1]).toEqual({ id: "call_b", name: "get_weather", arguments: { city: "Oslo" } });
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 36, totalTokens: 156 });
    expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "tool-calls", "stop"]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: { name: "get_weather", description: "Current weather in a city", parameters: weatherSchema },
      },
    ]);
    expect(server.requests[2]!.body.messages).toEqual([
      { role: "system", content: "Use tools." },
      { role: "user", content: "Weather in Tokyo, Oslo, Rome?" },
      ...chatCompletionsWeatherTurns("Checking two more."),
    ]);
    expect(withoutMeta(result.messages).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "tool",
      "assistant",
    ]);
  });

  it("emits tool-call-delta parts and whole tool-call parts from a stream", async () => {
    server.enqueue(
      openaiStream({
        toolCalls: [
          { id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } },
          { id: "call_2", name: "get_weather", arguments: { city: "Lima" } },
        ],
      }),
    );
    const parts = [];
    for await (const part of provider()("gpt-4o-mini").doStream({
      messages: [{ role: "user", content: "go" }],
      tools: [],
    }))
      parts.push(part);
    const deltas = parts.filter((part) => part.type === "tool-call-delta");
    expect(deltas.length).toBeGreaterThan(2);
    expect(
      deltas
        .filter((part) => part.toolCallId === "call_1")
        .map((part) => part.argumentsDelta)
        .join(""),
    ).toBe('{"city":"Tokyo"}');
    // The first call is whole as soon as the second one starts.
    const firstCall = parts.findIndex((part) => part.type === "tool-call");
    const secondStart = parts.findIndex((part) => part.type === "tool-call-delta" && part.toolCallId === "call_2");
    expect(firstCall).toBeLessThan(secondStart);
    expect(parts.filter((part) => part.type === "tool-call")).toEqual([
      { type: "tool-call", toolCall: { id: "call_1", name: "get_weather", arguments: { city: "Tokyo" } } },
      { type: "tool-call", toolCall: { id: "call_2", name: "get_weather", arguments: { city: "Lima" } } },
    ]);
    expect(parts.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
  });

  it("sends invalid tool-call JSON back to the model as a tool error instead of crashing", async () => {
    server.enqueue(
      {
        kind: "json",
        body: {
          id: "x",
          object: "chat.completion",
          created: 1,
          model: "gpt-4o-mini",
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  { id: "call_bad", type: "function", function: { name: "get_weather", arguments: '{"city": "Tok' } },
                ],
              },
            },
          ],
        },
      },
      openaiCompletion({ text: "Sorry, retrying." }),
    );
    const agent = new Agent({ model: provider()("gpt-4o-mini"), tools: { get_weather: weather } });
    const result = await agent.run("Weather?");
    expect(result.toolResults[0]).toMatchObject({ toolCallId: "call_bad", isError: true });
    const second = server.requests[1]!.body.messages;
    expect(second[1].tool_calls[0].function.arguments).toBe("{}");
    expect(second[2]).toMatchObject({ role: "tool", tool_call_id: "call_bad" });
    expect(second[2].content).toMatch(/^Error: Invalid arguments for tool "get_weather"/);
  });

  it("turns a 400 into an APICallError and does not retry it", async () => {
    server.enqueue(openaiError(400, "Invalid 'messages': bad role."));
    const agent = new Agent({ model: provider()("gpt-4o-mini") });
    const apiError = await runFailure(agent);
    expectAPICallError(apiError, 400, false);
    expect(apiError.provider).toBe("openai");
    expect(apiError.modelId).toBe("gpt-4o-mini");
    expect(apiError.responseBody).toContain("bad role");
    expect(apiError.cause).toBeDefined();
    expect(server.requests).toHaveLength(1);
  });

  it("lets the SDK retry a 429 after retry-after, once (the one retry layer)", async () => {
    server.enqueue(
      openaiError(429, "Rate limit reached.", { "retry-after": "1" }),
      openaiCompletion({ text: "after the wait" }),
    );
    const agent = new Agent({ model: provider()("gpt-4o-mini") });
    const started = Date.now();
    const result = await agent.run("Hi");
    expect(result.text).toBe("after the wait");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.headers["x-stainless-retry-count"]).toBe("1");
  });

  it("surfaces a 429 as a retryable APICallError with the agent's maxRetries: 0", async () => {
    server.enqueue(
      openaiError(429, "Rate limit reached.", { "retry-after": "1" }),
      openaiCompletion({ text: "never" }),
    );
    const agent = new Agent({ model: provider()("gpt-4o-mini"), maxRetries: 0 });
    const error = await runFailure(agent);
    expectAPICallError(error, 429, true);
    expect(error.responseHeaders?.["retry-after"]).toBe("1");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 500 as many times as maxRetries, then fails with a typed error", async () => {
    const fast = { "retry-after-ms": "10" };
    server.enqueue(openaiError(500, "boom", fast), openaiError(500, "boom again", fast));
    const agent = new Agent({ model: provider({ maxRetries: 1 })("gpt-4o-mini") });
    expectAPICallError(await runFailure(agent), 500, true);
    expect(server.requests).toHaveLength(2);
  });

  it("aborts mid-stream: the run rejects with AbortError and the HTTP request is closed", async () => {
    server.enqueue(openaiStream({ text: "This answer is long and will never finish." }, { hang: true }));
    const agent = new Agent({ model: provider()("gpt-4o-mini") });
    const { stream, received } = await abortAtFirstDelta(agent, "Talk");
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);
    expect(received.length).toBeGreaterThan(0);
    await server.waitForEarlyClose();
    expect(server.closedEarly).toBe(1);
  });

  it("fails a stream whose event carries an error, as the SDK does, with an APICallError", async () => {
    const chunk = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini" };
    server.enqueue({
      kind: "sse",
      events: [
        { data: { ...chunk, choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] } },
        { data: { error: { message: "The server is overloaded.", type: "server_error" } } },
      ],
    });
    const stream = new Agent({ model: provider()("gpt-4o-mini") }).stream("Hi");
    const error = (await stream.response.catch((caught: unknown) => caught)) as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.message).toContain("The server is overloaded.");
    expect(error.responseBody).toContain("server_error");
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const delta of stream.textStream) received.push(delta);
      })(),
    ).rejects.toSatisfy(APICallError.isInstance);
    expect(received).toEqual(["Hel"]);
  });

  it("closes the HTTP request when the reader of doStream stops early", async () => {
    server.enqueue(openaiStream({ text: "A long answer that the reader does not wait for." }, { hang: true }));
    const parts = [];
    for await (const part of provider()("gpt-4o-mini").doStream({
      messages: [{ role: "user", content: "Hi" }],
      tools: [],
    })) {
      parts.push(part);
      break;
    }
    expect(parts).toEqual([{ type: "text-delta", delta: "A lon" }]);
    await server.waitForEarlyClose();
    expect(server.closedEarly).toBe(1);
  });

  it("passes the abort signal to the HTTP request while waiting for an answer", async () => {
    await abortWhileWaiting(server, new Agent({ model: provider()("gpt-4o-mini") }));
    expect(server.requests).toHaveLength(1);
  });

  it("raises MissingApiKeyError naming OPENAI_API_KEY at the first call, not at new Agent", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
    try {
      const agent = new Agent({ model: createOpenAI()("gpt-4o-mini") });
      const error = await runFailure<MissingApiKeyError>(agent);
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
      expect(error.provider).toBe("openai");
      expect(error.environmentVariable).toBe("OPENAI_API_KEY");
      expect(error.message).toContain("OPENAI_API_KEY");
      expect(server.requests).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("embeds texts as floats, in input order", async () => {
    server.enqueue({
      kind: "json",
      body: {
        object: "list",
        model: "text-embedding-3-small",
        data: [
          { object: "embedding", index: 1, embedding: [0.5, 0.25] },
          { object: "embedding", index: 0, embedding: [1, -1] },
        ],
        usage: { prompt_tokens: 6, total_tokens: 6 },
      },
    });
    const model = provider().embedding("text-embedding-3-small", { dimensions: 2 });
    expect(model.dimensions).toBe(2);
    const result = await model.doEmbed({ values: ["first", "second"] });
    expect(result.embeddings).toEqual([
      [1, -1],
      [0.5, 0.25],
    ]);
    expect(result.usage).toEqual({ inputTokens: 6 });
    expect(server.requests[0]!.path).toBe("/v1/embeddings");
    expect(server.requests[0]!.body).toEqual({
      model: "text-embedding-3-small",
      input: ["first", "second"],
      encoding_format: "float",
      dimensions: 2,
    });
  });
});
