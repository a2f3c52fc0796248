// What the trace-run tests share: a tracer provider recording spans in memory, span lookups, and
// the weather tool and recall provider their agents run with.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { RecallMemoryProvider } from "../../../providers/memory-provider";

/** A tracer provider whose spans land in memory; `started` also holds the spans not ended yet. */
export function recorder() {
  const exporter = new InMemorySpanExporter();
  const started: Span[] = [];
  const tracking: SpanProcessor = {
    onStart: (span) => void started.push(span),
    onEnd: () => {},
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [tracking, new SimpleSpanProcessor(exporter)] });
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => {
    const found = spans().filter((span) => span.name === name);
    if (found.length === 0)
      throw new Error(
        `no span "${name}" among ${spans()
          .map((span) => span.name)
          .join(", ")}`,
      );
    return found;
  };
  return {
    provider,
    tracer: provider.getTracer("test"),
    spans,
    named,
    one: (name: string) => named(name)[0]!,
    started,
  };
}

export const idOf = (span: ReadableSpan) => span.spanContext().spanId;
export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
export const exceptions = (span: ReadableSpan) => span.events.filter((event) => event.name === "exception");

export { weather } from "../../__fixtures__/run-fixtures";

export const recallProvider: RecallMemoryProvider = {
  type: "notes",
  read: async () => [{ id: "n1", content: "The user lives in Paris." }],
  write: async () => {},
};
