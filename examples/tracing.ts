/**
 * OpenTelemetry traces of an agent: one run with a tool call, its spans printed as a tree.
 *
 *   npx tsx examples/tracing.ts
 *
 * The run's own span is longer than its children together: the first run in a process loads the
 * tokenizer (after the first model call, to calibrate token counts), once.
 *
 * Runs offline on the scripted MockLanguageModel. The spans go to the OpenTelemetry SDK's
 * in-memory exporter here; in an application, give the tracer of your own setup (NodeSDK with an
 * OTLP exporter, say) or register it globally and pass `telemetry: {}`.
 *
 * The tool starts a span of its own, which nests under its `execute_tool` span because a context
 * manager is registered (NodeSDK registers one; here the two lines do).
 */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { Agent, InMemoryStore, tool } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { z } from "zod";

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const model = new MockLanguageModel({
  provider: "openai",
  modelId: "gpt-4o-mini",
  responses: [
    {
      toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }],
      usage: { inputTokens: 42, outputTokens: 9 },
    },
    { text: "It is 24°C and sunny in Lisbon.", usage: { inputTokens: 71, outputTokens: 11 } },
  ],
});

const agent = new Agent({
  name: "weather-assistant",
  model,
  memory: "sliding_window",
  memoryStore: new InMemoryStore(),
  tools: {
    get_weather: tool({
      description: "Current weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        // The tool's own work, traced by the application: its span's parent is the active one.
        const span = provider.getTracer("weather-app").startSpan("weather.lookup", { attributes: { city } });
        span.end();
        return { city, temperature: "24°C", sky: "sunny" };
      },
    }),
  },
  telemetry: {
    tracer: provider.getTracer("weather-app"),
    functionId: "weather-chat",
    // Inputs and outputs (prompts, answers, tool arguments and results) are recorded by default.
    recordInputs: false,
  },
});

const result = await agent.run({ input: "What's the weather in Lisbon?", sessionId: "user-7" });
console.log(`answer: ${result.text}\n`);

// The finished spans, printed as a tree: name, duration, and the attributes worth a glance.
const spans = exporter.getFinishedSpans();
const shown = [
  "gen_ai.request.model",
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.response.finish_reasons",
  "gen_ai.tool.description",
  "gen_ai.tool.call.id",
  "agentcore.session.id",
  "agentcore.messages.kept",
  "agentcore.messages.dropped",
];
const durationMs = (span: ReadableSpan) => (span.duration[0] * 1e3 + span.duration[1] / 1e6).toFixed(2);
function print(span: ReadableSpan, depth: number): void {
  const attributes = shown
    .filter((key) => span.attributes[key] !== undefined)
    .map((key) => `${key}=${JSON.stringify(span.attributes[key])}`);
  const status = span.status.code === 2 ? ` ERROR ${span.status.message ?? ""}` : "";
  console.log(
    `${"  ".repeat(depth)}${span.name} (${durationMs(span)} ms)${status}${attributes.length ? `  ${attributes.join(" ")}` : ""}`,
  );
  for (const child of spans.filter((candidate) => candidate.parentSpanContext?.spanId === span.spanContext().spanId))
    print(child, depth + 1);
}
for (const root of spans.filter((span) => span.parentSpanContext === undefined)) print(root, 0);
