/**
 * The OpenTelemetry types agentcore uses, written structurally: a `Tracer` of `@opentelemetry/api`
 * (1.x) fits `TelemetryTracer`, and nothing here imports that package, so the root entry stays
 * free of it (it is an optional peer, loaded lazily only when telemetry is on without a tracer).
 */

/** An attribute value, as OpenTelemetry accepts it. */
export type TelemetryAttributeValue =
  | string
  | number
  | boolean
  | Array<null | undefined | string>
  | Array<null | undefined | number>
  | Array<null | undefined | boolean>;

export type TelemetryAttributes = Record<string, TelemetryAttributeValue | undefined>;

/** An OpenTelemetry `Context` (`@opentelemetry/api`): an immutable map keyed by symbols. */
export interface TelemetryContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): TelemetryContext;
  deleteValue(key: symbol): TelemetryContext;
}

/** The part of an OpenTelemetry `Span` agentcore calls. */
export interface TelemetrySpan {
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  setAttributes(attributes: TelemetryAttributes): unknown;
  /** `code`: 0 unset, 1 ok, 2 error (`SpanStatusCode`). */
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: string | { name?: string; message?: string; stack?: string }): void;
  /** False when the span is sampled out: agentcore then skips building inputs and outputs. */
  isRecording(): boolean;
  end(): void;
}

/** The options agentcore passes to `startSpan`. `kind`: 0 internal, 2 client (`SpanKind`). */
export interface TelemetrySpanOptions {
  kind?: number;
  attributes?: TelemetryAttributes;
}

/** The part of an OpenTelemetry `Tracer` agentcore calls: `trace.getTracer("my-app")` fits it. */
export interface TelemetryTracer {
  startSpan(name: string, options?: TelemetrySpanOptions, context?: TelemetryContext): TelemetrySpan;
}

/**
 * OpenTelemetry tracing of the agent's runs (docs/tracing.md). Giving this
 * option turns tracing on; without it no span is started and no attribute is built.
 */
export interface TelemetryOptions {
  /** Turns tracing off while keeping the options (e.g. per environment). @default true */
  isEnabled?: boolean;
  /**
   * The tracer spans are started on. Without it, the global tracer of `@opentelemetry/api`
   * (`trace.getTracer("agentcore")`), which must then be installed: it is an optional peer, loaded
   * only here.
   */
  tracer?: TelemetryTracer;
  /**
   * Record what goes in: the user input, the messages and system prompt sent to the model (facts
   * and recalled memories included), tool arguments, the recall query. As the AI SDK does, on by
   * default; turn it off when traces must not hold user data. With either option off, a failure is
   * recorded by its type (`error.type`), without its message or stack. @default true
   */
  recordInputs?: boolean;
  /** Record what comes out: the model's answers, tool calls and tool results. @default true */
  recordOutputs?: boolean;
  /** Names the code path in traces (`agentcore.function_id` on every span), like the AI SDK's `functionId`. */
  functionId?: string;
  /** Added to every span as `agentcore.metadata.<key>`. */
  metadata?: Record<string, TelemetryAttributeValue>;
}
