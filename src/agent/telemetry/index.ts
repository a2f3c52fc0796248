// agentcore/telemetry: the types of the `telemetry` option (docs/tracing.md).
// Types only: the tracer and span types are structural, so @opentelemetry/api is never imported here.
export type {
  TelemetryAttributes,
  TelemetryAttributeValue,
  TelemetryContext,
  TelemetryOptions,
  TelemetrySpan,
  TelemetrySpanOptions,
  TelemetryTracer,
} from "./telemetry-options";
