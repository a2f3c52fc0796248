import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type {
  TelemetryAttributes,
  TelemetryAttributeValue,
  TelemetryContext,
  TelemetryOptions,
  TelemetryTracer,
} from "./telemetry-options";

/** An agent's telemetry options, checked once at construction (frozen). */
export interface ResolvedTelemetry {
  readonly tracer: TelemetryTracer | undefined;
  readonly recordInputs: boolean;
  readonly recordOutputs: boolean;
  /** `agentcore.function_id` and `agentcore.metadata.*`, set on every span. */
  readonly attributes: Readonly<TelemetryAttributes>;
}

/** The part of `@opentelemetry/api` agentcore uses when it is installed. */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    setSpan(context: TelemetryContext, span: unknown): TelemetryContext;
  };
  context: {
    active(): TelemetryContext;
    with<T>(context: TelemetryContext, work: () => T): T;
  };
}

/**
 * Checks the `telemetry` option of `new Agent()` / `streamText()`. Undefined when it is not given
 * or `isEnabled: false`: the run loop then starts no span and builds no attribute.
 */
export function resolveTelemetry(options: TelemetryOptions | undefined): ResolvedTelemetry | undefined {
  if (options === undefined) return undefined;
  const fail = (argument: string, value: unknown, message: string) =>
    new InvalidArgumentError({ argument: `telemetry${argument}`, value, message });
  if (options === null || typeof options !== "object") {
    throw fail(
      "",
      options,
      "telemetry takes an options object: { tracer?, recordInputs?, recordOutputs?, functionId?, metadata? }.",
    );
  }
  for (const name of ["isEnabled", "recordInputs", "recordOutputs"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "boolean")
      throw fail(`.${name}`, options[name], `telemetry.${name} must be true or false.`);
  }
  if (options.isEnabled === false) return undefined;
  const tracer = options.tracer;
  if (
    tracer !== undefined &&
    (tracer === null || typeof tracer !== "object" || typeof tracer.startSpan !== "function")
  ) {
    throw fail(
      ".tracer",
      tracer,
      'telemetry.tracer must be an OpenTelemetry Tracer (trace.getTracer("my-app") of @opentelemetry/api), with startSpan().',
    );
  }
  if (options.functionId !== undefined && typeof options.functionId !== "string")
    throw fail(".functionId", options.functionId, "telemetry.functionId must be a string.");
  const attributes: TelemetryAttributes = {};
  if (options.functionId !== undefined) attributes["agentcore.function_id"] = options.functionId;
  if (options.metadata !== undefined) {
    if (options.metadata === null || typeof options.metadata !== "object" || Array.isArray(options.metadata)) {
      throw fail(
        ".metadata",
        options.metadata,
        "telemetry.metadata must be an object of attribute values (strings, numbers, booleans or arrays of one of them).",
      );
    }
    for (const [key, value] of Object.entries(options.metadata)) {
      if (!isAttributeValue(value)) {
        throw fail(
          `.metadata.${key}`,
          value,
          `telemetry.metadata.${key} must be a string, number, boolean, or an array of one of them.`,
        );
      }
      attributes[`agentcore.metadata.${key}`] = value;
    }
  }
  return Object.freeze({
    tracer,
    recordInputs: options.recordInputs ?? true,
    recordOutputs: options.recordOutputs ?? true,
    attributes: Object.freeze(attributes),
  });
}

function isAttributeValue(value: unknown): value is TelemetryAttributeValue {
  const primitive = (item: unknown) =>
    typeof item === "string" || typeof item === "boolean" || (typeof item === "number" && Number.isFinite(item));
  if (primitive(value)) return true;
  return Array.isArray(value) && value.every((item) => typeof item === typeof value[0] && primitive(item));
}

let loaded: Promise<OpenTelemetryApi | undefined> | undefined;
// The specifier goes through a parameter, so no bundler (Turbopack, webpack, esbuild) resolves it at
// build time: an app without the package builds, and Node loads it from node_modules at run time.
// Edge runtimes have no node_modules at run time: there the import fails and a run needs a tracer.
const importOpenTelemetry = () => importAtRunTime("@opentelemetry/api").catch(() => undefined);

function importAtRunTime(specifier: string): Promise<unknown> {
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ specifier);
}

/**
 * `@opentelemetry/api`, imported once per process on the first traced run; undefined when it is
 * not installed. `importer` replaces the import in tests (not cached then).
 */
export function loadOpenTelemetryApi(
  importer: () => Promise<unknown> = importOpenTelemetry,
): Promise<OpenTelemetryApi | undefined> {
  if (importer !== importOpenTelemetry) return importApi(importer);
  loaded ??= importApi(importer);
  return loaded;
}

async function importApi(importer: () => Promise<unknown>): Promise<OpenTelemetryApi | undefined> {
  try {
    const module = (await importer()) as
      | (Partial<OpenTelemetryApi> & { default?: Partial<OpenTelemetryApi> })
      | undefined;
    const api = module?.trace ? module : module?.default;
    return api?.trace && api.context ? (api as OpenTelemetryApi) : undefined;
  } catch {
    return undefined;
  }
}

/** The error of a traced run that needs the global tracer when `@opentelemetry/api` is not installed. */
export function missingApiError(): InvalidArgumentError {
  return new InvalidArgumentError({
    argument: "telemetry.tracer",
    message:
      'telemetry is on without a tracer, so agentcore uses the global tracer of "@opentelemetry/api", which could not be imported: ' +
      "it is not installed (npm install @opentelemetry/api@^1.9, then register your tracer provider), or this is an edge runtime, " +
      'which cannot import packages at run time: pass telemetry: { tracer: trace.getTracer("my-app") }.',
  });
}
