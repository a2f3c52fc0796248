// The real @anthropic-ai/sdk, which makes its own OpenTelemetry CLIENT span per call
// (`anthropic.messages.create`, with `gen_ai.operation.name: "chat"` and `gen_ai.usage.*`), under a
// traced agent: agentcore's `chat` span is the only one that carries the usage, so a dashboard that
// sums chat spans counts each token once. A real tracer provider, registered globally (as NodeSDK
// does) with the async-hooks context manager, records the spans; the SDK talks to the loopback
// Anthropic server.
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { context, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  anthropicError,
  anthropicMessage,
  anthropicStream,
  openaiCompletion,
} from "../../../test/servers/wire-formats";
import { FakeLlmServer } from "../../../test/servers/fake-llm-server";
import { createAnthropic } from "../../models/anthropic/anthropic-provider";
import { createOpenAI } from "../../models/openai/openai-provider";
import { tool } from "../../tools/tool";
import { Agent } from "../agent";

let server: FakeLlmServer;
let exporter: InMemorySpanExporter;

beforeEach(async () => {
  server = await FakeLlmServer.start();
  exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterEach(async () => {
  trace.disable();
  context.disable();
  await server.close();
});

const claude = (options: { maxRetries?: number } = {}) =>
  createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url, ...options })("claude-sonnet-4");
/** The name of agentcore's span of a call to that model (its short name resolved). */
const chatSpan = () => `chat ${claude().modelId}`;
const spans = () => exporter.getFinishedSpans();
const withUsage = () => spans().filter((span) => span.attributes["gen_ai.usage.output_tokens"] !== undefined);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe("the provider SDK's own spans under a traced run", () => {
  it("are made by the Anthropic SDK when it is called outside a run (the spans this suite keeps out)", async () => {
    server.enqueue(anthropicMessage({ text: "Hi.", usage: { inputTokens: 7, outputTokens: 3 } }));
    await claude().doGenerate({ messages: [{ role: "user", content: "Hi" }], tools: [] });
    expect(withUsage().map((span) => [span.name, span.attributes["gen_ai.usage.output_tokens"]])).toEqual([
      ["anthropic.messages.create", 3],
    ]);
  });

  it("leave agentcore's chat spans the only ones with usage, with doGenerate and doStream", async () => {
    server.enqueue(
      anthropicMessage({ toolCalls: [{ id: "toolu_1", name: "lookup", arguments: { q: "x" } }] }),
      anthropicMessage({ text: "Found it.", usage: { inputTokens: 20, outputTokens: 4 } }),
      anthropicStream({ text: "Streamed answer.", usage: { inputTokens: 30, outputTokens: 6 } }),
    );
    const lookup = tool({
      description: "Looks something up",
      parameters: z.object({ q: z.string() }),
      // The tool's own span nests under execute_tool: suppression covers the model call, not the tools.
      execute: async () => {
        trace.getTracer("my-tool").startSpan("lookup.query").end();
        return "the answer";
      },
    });
    const agent = new Agent({ name: "helper", model: claude(), tools: { lookup }, telemetry: {} });
    const result = await agent.run("Look it up");
    const stream = agent.stream("And stream it");
    for await (const _ of stream.textStream);
    const streamed = await stream.response;

    expect(spans().map((span) => span.name)).not.toContain("anthropic.messages.create");
    const chats = spans().filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(chats.map((span) => span.name)).toEqual([chatSpan(), chatSpan(), chatSpan()]);
    expect(withUsage().filter((span) => span.attributes["gen_ai.operation.name"] !== "invoke_agent")).toEqual(chats);
    // Summed over the chat spans, the tokens are the runs' own, once.
    const sum = (key: string) => chats.reduce((total, span) => total + (span.attributes[key] as number), 0);
    expect(sum("gen_ai.usage.output_tokens")).toBe(result.usage.outputTokens + streamed.usage.outputTokens);
    expect(sum("gen_ai.usage.input_tokens")).toBe(result.usage.inputTokens + streamed.usage.inputTokens);

    const toolSpan = spans().find((span) => span.name === "execute_tool lookup")!;
    expect(parentOf(spans().find((span) => span.name === "lookup.query")!)).toBe(idOf(toolSpan));
    expect(toolSpan.attributes["gen_ai.tool.description"]).toBe("Looks something up");
    // server.address / server.port of the API called.
    const port = Number(new URL(server.url).port);
    for (const chat of chats)
      expect(chat.attributes).toMatchObject({ "server.address": "127.0.0.1", "server.port": port });
  });

  it("record a failed call's error.type as the SDK's error class, on the chat span only", async () => {
    server.enqueue(anthropicError(429, "Slow down."));
    const agent = new Agent({ model: claude({ maxRetries: 0 }), telemetry: { recordOutputs: false } });
    await expect(agent.run("Hi")).rejects.toThrow(/429/);
    const chat = spans().find((span) => span.name === chatSpan())!;
    expect(chat.status).toEqual({ code: 2, message: "RateLimitError" });
    expect(chat.attributes["error.type"]).toBe("RateLimitError");
    expect(spans().map((span) => span.name)).not.toContain("anthropic.messages.create");
  });

  it("name the server an OpenAI-compatible model calls on its chat span", async () => {
    server.enqueue(openaiCompletion({ text: "Hi." }));
    const model = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o-mini");
    await new Agent({ model, telemetry: {} }).run("Hi");
    expect(spans().find((span) => span.name === "chat gpt-4o-mini")!.attributes).toMatchObject({
      "server.address": "127.0.0.1",
      "server.port": Number(new URL(server.url).port),
    });
    expect(createOpenAI({ baseURL: "https://llm.example.com/v1" })("gpt-4o").baseURL).toBe(
      "https://llm.example.com/v1",
    );
  });
});
