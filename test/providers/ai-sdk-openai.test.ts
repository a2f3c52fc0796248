// @ai-sdk/openai (an AI SDK provider package) as agentcore's model, pointed at the loopback
// server speaking the real wire formats: `openai.chat(...)` calls Chat Completions,
// `openai(...)` (@ai-sdk/openai 3's and 4's default) the Responses API. The same tests run on
// @ai-sdk/openai 3 (spec v3, `ai` 6) and `@ai-sdk/openai-v4`, @ai-sdk/openai 4 (spec v4, `ai` 7).
// `@ai-sdk/openai-v5` is @ai-sdk/openai 2 (spec v2, for `ai` 5), installed under that alias by
// @mastra/core.
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAI as createOpenAIV4 } from "@ai-sdk/openai-v4";
import { createOpenAI as createOpenAIV2 } from "@ai-sdk/openai-v5";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import type { AgentOptions } from "../../src/agent/agent-options";
import { AbortError } from "../../src/errors/abort-error";
import { APICallError } from "../../src/errors/api-call-error";
import { MissingApiKeyError } from "../../src/errors/missing-api-key-error";
import { isToolPairingValid } from "../../src/messages/validate-tool-pairing";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { FakeLlmServer, type ScriptedResponse } from "../servers/fake-llm-server";
import {
  openaiCompletion,
  openaiError,
  openaiResponse,
  openaiResponsesStream,
  openaiStream,
  type ScriptedAnswer,
} from "../servers/wire-formats";
import { abortAtFirstDelta, runFailure } from "../helpers/provider-failures";
import { chatCompletionsWeatherTurns, runOrStream, weather, weatherToolAnswers, withoutMeta } from "./helpers";

startFakeLlmServerPerTest();

/** An `@ai-sdk/openai` line: its `createOpenAI` and the specification version of its models. */
interface Line {
  line: 3 | 4;
  specificationVersion: "v3" | "v4";
  provider: () => {
    (modelId: string): AgentOptions["model"];
    chat(modelId: string): AgentOptions["model"];
  };
}

const lines: Line[] = [
  {
    line: 3,
    specificationVersion: "v3",
    provider: () => createOpenAI({ apiKey: "sk-aisdk", baseURL: `${server.url}/v1` }),
  },
  {
    line: 4,
    specificationVersion: "v4",
    provider: () => createOpenAIV4({ apiKey: "sk-aisdk", baseURL: `${server.url}/v1` }),
  },
];

interface Api {
  line: 3 | 4;
  specificationVersion: "v3" | "v4";
  name: string;
  path: string;
  model: () => AgentOptions["model"];
  json: (answer: ScriptedAnswer) => ScriptedResponse;
  stream: (answer: ScriptedAnswer, options?: { hang?: boolean; delayMs?: number }) => ScriptedResponse;
}

const apis: Api[] = lines.flatMap(({ line, specificationVersion, provider }) => [
  {
    line,
    specificationVersion,
    name: "Chat Completions, openai.chat()",
    path: "/v1/chat/completions",
    model: () => provider().chat("gpt-4o-mini"),
    json: openaiCompletion,
    stream: openaiStream,
  },
  {
    line,
    specificationVersion,
    name: "Responses API, openai()",
    path: "/v1/responses",
    model: () => provider()("gpt-4o-mini"),
    json: openaiResponse,
    stream: openaiResponsesStream,
  },
]);

const toolAnswers = weatherToolAnswers("call_", "Two more.");

describe.each(apis)("@ai-sdk/openai $line as agentcore's model: $name (loopback)", (api) => {
  it("answers with text, sends the system prompt and call settings, reports usage", async () => {
    server.enqueue(api.json({ text: "Hello there!", usage: { inputTokens: 12, outputTokens: 3 } }));
    const model = api.model();
    expect((model as { specificationVersion: string }).specificationVersion).toBe(api.specificationVersion);
    const agent = new Agent({
      model,
      systemPrompt: "You are terse.",
      temperature: 0.2,
      maxOutputTokens: 100,
    });
    const result = await agent.run("Hi");

    expect(result.text).toBe("Hello there!");
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
    expect(result.finishReason).toBe("stop");
    const [request] = server.requests;
    expect(request!.path).toBe(api.path);
    expect(request!.headers.authorization).toBe("Bearer sk-aisdk");
    expect(request!.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0.2 });
    if (api.path === "/v1/chat/completions") {
      expect(request!.body.messages).toEqual([
        { role: "system", content: "You are terse." },
        { role: "user", content: "Hi" },
      ]);
      expect(request!.body.max_tokens ?? request!.body.max_completion_tokens).toBe(100);
    } else {
      expect(request!.body.input).toEqual([
        { role: "system", content: "You are terse." },
        { role: "user", content: [{ type: "input_text", text: "Hi" }] },
      ]);
      expect(request!.body.max_output_tokens).toBe(100);
    }
  });

  it("streams the answer in deltas with usage", async () => {
    server.enqueue(api.stream({ text: "Streaming works fine.", usage: { inputTokens: 7, outputTokens: 4 } }));
    const stream = new Agent({ model: api.model() }).stream("Stream please");
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    const result = await stream.response;

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Streaming works fine.");
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 4, totalTokens: 11 });
    expect(server.requests[0]!.body.stream).toBe(true);
  });

  it.each(["run", "stream"] as const)(
    "runs tool calls across steps, stores them paired and sends them back in the wire format (%s)",
    async (mode) => {
      for (const answer of toolAnswers) server.enqueue(mode === "run" ? api.json(answer) : api.stream(answer));
      const store = new InMemoryStore();
      const agent = new Agent({
        model: api.model(),
        tools: { get_weather: weather },
        memoryStore: store,
        sessionId: "s",
      });
      const result = await runOrStream(agent, mode, "Weather in Tokyo, Oslo, Rome?");

      expect(result.text).toBe("Tokyo 22°C, Oslo 4°C, Rome 22°C.");
      expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 36, totalTokens: 156 });
      expect(result.toolCalls.map((call) => call.arguments.city)).toEqual(["Tokyo", "Oslo", "Rome"]);
      const stored = await store.getMessages("s");
      expect(isToolPairingValid(stored)).toBe(true);
      expect(withoutMeta(stored).map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "tool",
        "assistant",
      ]);
      expect(stored[3]).toMatchObject({ content: "Two more.", toolCalls: [{ id: "call_b" }, { id: "call_c" }] });

      const first = server.requests[0]!.body;
      const last = server.requests[2]!.body;
      if (api.path === "/v1/chat/completions") {
        expect(first.tools).toEqual([
          {
            type: "function",
            function: {
              name: "get_weather",
              description: "Current weather in a city",
              parameters: expect.objectContaining({ properties: { city: { type: "string" } } }),
            },
          },
        ]);
        expect(last.messages.slice(1)).toEqual(chatCompletionsWeatherTurns("Two more."));
      } else {
        expect(first.tools).toEqual([
          expect.objectContaining({
            type: "function",
            name: "get_weather",
            description: "Current weather in a city",
            parameters: expect.objectContaining({ properties: { city: { type: "string" } } }),
          }),
        ]);
        const items = last.input
          .slice(1)
          .map((item: any) =>
            item.type
              ? { type: item.type, call_id: item.call_id, output: item.output, arguments: item.arguments }
              : { role: item.role },
          );
        expect(items).toEqual([
          { type: "function_call", call_id: "call_a", output: undefined, arguments: '{"city":"Tokyo"}' },
          {
            type: "function_call_output",
            call_id: "call_a",
            output: '{"city":"Tokyo","temperature":"22°C"}',
            arguments: undefined,
          },
          { role: "assistant" },
          { type: "function_call", call_id: "call_b", output: undefined, arguments: '{"city":"Oslo"}' },
          { type: "function_call", call_id: "call_c", output: undefined, arguments: '{"city":"Rome"}' },
          {
            type: "function_call_output",
            call_id: "call_b",
            output: '{"city":"Oslo","temperature":"4°C"}',
            arguments: undefined,
          },
          {
            type: "function_call_output",
            call_id: "call_c",
            output: '{"city":"Rome","temperature":"22°C"}',
            arguments: undefined,
          },
        ]);
      }
    },
  );

  it("aborts mid-stream: the HTTP response is closed and the run ends with AbortError", async () => {
    server.enqueue(
      api.stream({ text: "This answer never finishes because the client goes away." }, { hang: true, delayMs: 2 }),
    );
    const store = new InMemoryStore();
    const agent = new Agent({ model: api.model(), memoryStore: store, sessionId: "abort" });
    const { stream } = await abortAtFirstDelta(agent, "Go");
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);
    await server.waitForEarlyClose();
    expect(server.closedEarly).toBe(1);
    expect((await store.getMessages("abort")).map((message) => message.role)).toEqual(["user"]);
  });

  it("maps HTTP errors to APICallError with status and retryability; retries 5xx", async () => {
    server.enqueue(openaiError(429, "Rate limit reached", { "retry-after-ms": "0" }));
    const error = await runFailure(new Agent({ model: api.model(), maxRetries: 0 }), "hi");
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: "openai", modelId: "gpt-4o-mini", statusCode: 429, isRetryable: true });
    expect((error as APICallError).responseBody).toContain("Rate limit reached");
    expect(server.requests).toHaveLength(1);

    server.enqueue(openaiError(503, "Overloaded", { "retry-after-ms": "1" }), api.json({ text: "Recovered." }));
    expect((await new Agent({ model: api.model() }).run("again")).text).toBe("Recovered.");
    expect(server.requests).toHaveLength(3);

    server.enqueue(openaiError(400, "Bad request"));
    await expect(new Agent({ model: api.model() }).run("bad")).rejects.toMatchObject({
      statusCode: 400,
      isRetryable: false,
    });
    expect(server.requests).toHaveLength(4);
  });
});

describe("@ai-sdk/openai 2 (spec v2, for ai 5) as agentcore's model (loopback)", () => {
  it("runs a streamed tool call and a generated answer through Chat Completions", async () => {
    server.enqueue(
      openaiStream(toolAnswers[0]!),
      openaiCompletion({ text: "Tokyo is 22°C.", usage: { inputTokens: 30, outputTokens: 6 } }),
    );
    const openai = createOpenAIV2({ apiKey: "sk-v2", baseURL: `${server.url}/v1` });
    const model = openai.chat("gpt-4o-mini");
    expect(model.specificationVersion).toBe("v2");
    const store = new InMemoryStore();
    const agent = new Agent({ model, tools: { get_weather: weather }, memoryStore: store, sessionId: "v2" });
    const streamed = await agent.stream("Weather in Tokyo?").response;
    expect(streamed.toolCalls).toEqual([expect.objectContaining({ id: "call_a", arguments: { city: "Tokyo" } })]);
    expect(streamed.usage.inputTokens).toBe(20);
    expect(isToolPairingValid(await store.getMessages("v2"))).toBe(true);
  });
});

describe.each([
  { line: 3, createOpenAI },
  { line: 4, createOpenAI: createOpenAIV4 },
])("@ai-sdk/openai $line failures before any HTTP answer", ({ createOpenAI }) => {
  it("a missing key is a MissingApiKeyError naming OPENAI_API_KEY", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const model = createOpenAI({ baseURL: `${server.url}/v1` })("gpt-4o-mini");
      const error = await new Agent({ model }).run("hi").catch((caught: unknown) => caught);
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ provider: "openai", environmentVariable: "OPENAI_API_KEY" });
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("an unreachable server is a retryable APICallError without status", async () => {
    const closed = await FakeLlmServer.start();
    const url = closed.url;
    await closed.close();
    const model = createOpenAI({ apiKey: "sk", baseURL: `${url}/v1` }).chat("gpt-4o-mini");
    const error = await new Agent({ model, maxRetries: 0 }).run("hi").catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: undefined, isRetryable: true });
    expect((error as Error).message).toMatch(/could not reach the API/);
  });
});
