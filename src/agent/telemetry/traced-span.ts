import { AbortError } from "../../errors/abort-error";
import { APICallError } from "../../errors/api-call-error";
import { errorText, errorType } from "../../errors/error-text";
import type { OpenTelemetryApi } from "./resolve-telemetry";
import type { TelemetryAttributes, TelemetryContext, TelemetrySpan } from "./telemetry-options";

/** `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const STATUS_ERROR = 2;

/**
 * One span of a run, ended once: by its phase (`end`, `fail`), or by the run when it ends first
 * (an error thrown past the phase, an abort, a cancelled stream), so no span is left open.
 */
export class TracedSpan {
  private ended = false;

  constructor(
    readonly span: TelemetrySpan,
    /** The context with this span active: the parent of spans started inside it. */
    readonly context: TelemetryContext,
    private readonly api: OpenTelemetryApi | undefined,
    private readonly onEnd: (span: TracedSpan) => void,
    /**
     * Whether a failure's message and stack are recorded (`recordInputs` and `recordOutputs` both
     * on): an error's text can hold what the run was told not to record (a tool argument, a prompt a
     * provider echoes), so otherwise only its type is.
     */
    private readonly recordErrorText: boolean,
  ) {}

  /** Whether inputs and outputs are worth building (false for a span sampled out). */
  get recording(): boolean {
    return !this.ended && this.span.isRecording();
  }

  /** Sets attributes, leaving out undefined values. */
  set(attributes: TelemetryAttributes): this {
    if (this.ended) return this;
    const defined: TelemetryAttributes = {};
    for (const key in attributes) if (attributes[key] !== undefined) defined[key] = attributes[key];
    this.span.setAttributes(defined);
    return this;
  }

  end(attributes?: TelemetryAttributes): void {
    if (this.ended) return;
    if (attributes) this.set(attributes);
    this.ended = true;
    this.span.end();
    this.onEnd(this);
  }

  /**
   * Ends the span with status ERROR and the exception recorded; `error.type` names the error's
   * class (a provider's failure: the SDK's error it wraps). Its message and stack only when error text is recorded, else the status message is the
   * type. An abort is marked `agentcore.aborted: true` and `error.type: "AbortError"`.
   */
  fail(error: unknown, runAborted?: boolean): void {
    if (this.ended) return;
    const aborted = runAborted === true || AbortError.isInstance(error);
    const name = aborted ? "AbortError" : spanErrorType(error);
    const text = this.recordErrorText;
    const message = aborted ? "The run was aborted." : text ? errorText(error) : undefined;
    this.span.recordException(
      text && error instanceof Error ? error : message === undefined ? { name } : { name, message },
    );
    this.span.setStatus({ code: STATUS_ERROR, message: message ?? name });
    this.end({ "error.type": name, ...(aborted ? { "agentcore.aborted": true } : {}) });
  }

  /** Ends the span as cancelled: the run stopped without an error (its stream was closed early). */
  cancel(): void {
    if (this.ended) return;
    this.span.setStatus({ code: STATUS_ERROR, message: "The run was cancelled." });
    this.end({ "error.type": "cancelled", "agentcore.aborted": true });
  }

  /** Runs `work` with this span as the active context, so spans of the libraries it calls nest under it. */
  within<T>(work: () => T): T {
    return this.api && !this.ended ? this.api.context.with(this.context, work) : work();
  }

  /** `iterable` read with this span's context active at each step (its start, each `next`, `return`), as `within` runs a call. */
  iterateWithin<T>(iterable: AsyncIterable<T>): AsyncIterable<T> {
    const api = this.api;
    if (!api) return iterable;
    const context = this.context;
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = api.context.with(context, () => iterable[Symbol.asyncIterator]());
        return {
          next: () => api.context.with(context, () => iterator.next()),
          return: (value?: unknown) =>
            iterator.return
              ? api.context.with(context, () => iterator.return!(value))
              : Promise.resolve({ done: true as const, value: value as T }),
        };
      },
    };
  }
}

/**
 * The context key of `suppressTracing()` (`@opentelemetry/core`, a `Symbol.for` like every context
 * key of OpenTelemetry JS): the SDK's tracers start no recording span in a context that has it, so
 * the instrumentation of a library called there (a provider SDK's own spans, HTTP client spans)
 * records nothing.
 */
const SUPPRESS_TRACING_KEY = Symbol.for("OpenTelemetry SDK Context Key SUPPRESS_TRACING");

/** `context` with tracing suppressed, as `suppressTracing(context)` of `@opentelemetry/core` makes it. */
export function suppressTracing(context: TelemetryContext): TelemetryContext {
  return context.setValue(SUPPRESS_TRACING_KEY, true);
}

/**
 * `error.type` of a failure: the class of what failed first. A provider's failure is an
 * `APICallError` whose `cause` is the SDK's own error (`RateLimitError`, `APIConnectionError`…),
 * which names it; any other error names itself.
 */
function spanErrorType(error: unknown): string {
  const cause = APICallError.isInstance(error) ? error.cause : undefined;
  return errorType(cause instanceof Error ? cause : error);
}

/** The context key `@opentelemetry/api` keeps the active span under (`trace.setSpan`): a `Symbol.for`, the same in every 1.x copy. */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** `parent` with `span` active: `trace.setSpan` of the API when it is loaded, the same by hand when it is not. */
export function contextWithSpan(
  api: OpenTelemetryApi | undefined,
  parent: TelemetryContext,
  span: TelemetrySpan,
): TelemetryContext {
  return api ? api.trace.setSpan(parent, span) : parent.setValue(SPAN_KEY, span);
}

/** The empty context (`ROOT_CONTEXT`), for a tracer given without `@opentelemetry/api` installed. */
export class RootContext implements TelemetryContext {
  constructor(private readonly values: ReadonlyMap<symbol, unknown> = new Map()) {}

  getValue(key: symbol): unknown {
    return this.values.get(key);
  }

  setValue(key: symbol, value: unknown): TelemetryContext {
    return new RootContext(new Map(this.values).set(key, value));
  }

  deleteValue(key: symbol): TelemetryContext {
    const values = new Map(this.values);
    values.delete(key);
    return new RootContext(values);
  }
}
