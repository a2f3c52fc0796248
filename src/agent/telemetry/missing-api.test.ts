// Telemetry when @opentelemetry/api is not installed (the import made to fail): without a tracer a
// traced run fails with a typed error that says what to install; with a tracer it still traces,
// its spans parented by hand.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { Agent } from "../agent";
import { loadOpenTelemetryApi } from "./resolve-telemetry";

vi.mock("@opentelemetry/api", () => {
  throw new Error("Cannot find package '@opentelemetry/api'");
});

describe("telemetry without @opentelemetry/api", () => {
  it("loads no API", async () => {
    expect(await loadOpenTelemetryApi()).toBeUndefined();
    expect(await loadOpenTelemetryApi(async () => ({ trace: {}, context: {} }))).toBeDefined();
  });

  it("fails a run without a tracer with an InvalidArgumentError naming telemetry.tracer and the package", async () => {
    const agent = new Agent({ model: new MockLanguageModel({ responses: [{ text: "never" }] }), telemetry: {} });
    const error = await agent.run("Hi").catch((thrown: unknown) => thrown);
    expect(InvalidArgumentError.isInstance(error) && error.argument).toBe("telemetry.tracer");
    expect((error as Error).message).toContain("npm install @opentelemetry/api");
  });

  it("traces with a tracer given, the span tree intact", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
    const agent = new Agent({ model: new MockLanguageModel({ responses: [{ text: "Hi!" }] }), telemetry: { tracer } });
    await agent.run("Hi");
    const spans = exporter.getFinishedSpans();
    const root = spans.find((span) => span.name === "invoke_agent")!;
    expect(root.parentSpanContext).toBeUndefined();
    expect(
      spans
        .filter((span) => span !== root)
        .every((span) => span.parentSpanContext?.spanId === root.spanContext().spanId),
    ).toBe(true);
    expect(spans).toHaveLength(5);
  });
});
