import { z } from "zod";
import { integerOption } from "../errors/check-option";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { exceedsDepth, MAX_TOOL_ARGUMENTS_DEPTH } from "../messages/tool-arguments-depth";
import type { ResponseFormat } from "../models/language-model";
import { isValidToolName } from "../tools/tool-definitions";

/** How many times a reply that fails the schema is asked for again, by default. */
export const DEFAULT_OUTPUT_RETRIES = 2;

/**
 * Deepest nesting of objects and arrays accepted in a structured reply (the object is level 1), as
 * for tool arguments: a deeper reply is invalid (asked for again, then `NoObjectGeneratedError`),
 * and `partialObjectStream` gives no partials past it. Recursive code (zod, `JSON.stringify`,
 * a structured clone) fails thousands of levels down; no schema a model fills needs 50.
 */
export const MAX_OUTPUT_DEPTH = MAX_TOOL_ARGUMENTS_DEPTH;

/** The `output` of a run in its long form: the schema and how to ask for it. */
export interface OutputOptions<Schema extends z.ZodType = z.ZodType> {
  /** A zod schema of an object (`z.object({...})`): the answer is validated with it and `result.object` typed by it. */
  schema: Schema;
  /** Names the object to the model (OpenAI's `json_schema.name`, Anthropic's output tool). 1-64 of `a-zA-Z0-9_-`. @default "response" */
  name?: string;
  /** Tells the model what the object is for. */
  description?: string;
  /**
   * How many more times a reply that is not JSON of the schema is asked for, each time with the
   * validation issue. The failed replies are never stored. Then a `NoObjectGeneratedError`.
   * @default 2
   */
  retries?: number;
}

/** A run's `output`: a zod object schema, or `{ schema, name?, description?, retries? }`. */
export type OutputSpec = z.ZodType | OutputOptions;

/** The type of the object a run with `output` resolves with. */
export type InferOutput<Output> = Output extends z.ZodType
  ? z.output<Output>
  : Output extends OutputOptions<infer Schema>
    ? z.output<Schema>
    : never;

/** An `output` checked, with the response format sent to the model. */
export interface ResolvedOutput {
  readonly schema: z.ZodType;
  readonly responseFormat: ResponseFormat;
  readonly retries: number;
}

const jsonSchemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

/** Checks a run's `output` option; `InvalidArgumentError` naming what is wrong. */
export function resolveOutput(output: OutputSpec, argument = "output"): ResolvedOutput {
  const options: OutputOptions = isZodSchema(output) ? { schema: output } : (output as OutputOptions);
  if (options == null || typeof options !== "object" || !isZodSchema(options.schema)) {
    throw new InvalidArgumentError({
      argument,
      value: output,
      message: `${argument} takes a zod object schema (z.object({...})) or { schema, name?, description?, retries? }.`,
    });
  }
  const name = options.name ?? "response";
  if (typeof name !== "string" || !isValidToolName(name)) {
    throw new InvalidArgumentError({
      argument: `${argument}.name`,
      value: name,
      message: `${argument}.name must be 1-64 letters, digits, "_" or "-".`,
    });
  }
  const retries = integerOption(options.retries, `${argument}.retries`, DEFAULT_OUTPUT_RETRIES, 0);
  return {
    schema: options.schema,
    retries,
    responseFormat: {
      type: "json",
      schema: objectJsonSchema(options.schema, argument),
      name,
      ...(options.description === undefined ? {} : { description: String(options.description) }),
    },
  };
}

/** The result of reading a reply as the object. */
export type ObjectParse =
  | { success: true; object: unknown; json: string }
  | { success: false; issue: string; cause: unknown };

/**
 * Reads a reply as the object: JSON (a Markdown code fence around it is allowed) nested at most
 * `MAX_OUTPUT_DEPTH` deep, then the zod schema. `json` is the reply's JSON, compact: what the
 * assistant message stores.
 */
export function parseObjectReply(text: string, schema: z.ZodType): ObjectParse {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*\n?/i, "")
    .replace(/\n?```$/, "")
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return {
      success: false,
      issue: body === "" ? "the reply was empty" : `the reply is not JSON (${(error as Error).message})`,
      cause: error,
    };
  }
  // Checked before zod and JSON.stringify, which recurse and would overflow the stack.
  if (exceedsDepth(value, MAX_OUTPUT_DEPTH)) {
    const issue = `the JSON is nested deeper than ${MAX_OUTPUT_DEPTH} levels of objects and arrays, the limit for a structured reply`;
    return { success: false, issue, cause: undefined };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 10)
      .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
      .join("; ");
    return { success: false, issue: `the JSON does not match the schema: ${issues}`, cause: parsed.error };
  }
  return { success: true, object: parsed.data, json: JSON.stringify(value) };
}

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

/**
 * The JSON schema of the object as the model should write it (zod's input side), each object
 * closed to unknown keys (`additionalProperties: false`) unless the schema says otherwise: zod
 * drops unknown keys anyway, and OpenAI's strict mode needs it said.
 */
function objectJsonSchema(schema: z.ZodType, argument: string): Record<string, unknown> {
  const cached = jsonSchemaCache.get(schema);
  if (cached) return cached;
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidArgumentError({
      argument,
      message: `${argument}'s schema has no JSON schema: ${(error as Error).message}`,
      cause: error,
    });
  }
  if (json.type !== "object") {
    throw new InvalidArgumentError({
      argument,
      message: `${argument} must be an object schema (z.object({...})): providers take only an object as structured output. Wrap a list or a value in an object.`,
    });
  }
  const { $schema: _ignored, ...rest } = json;
  const closed = closeObjects(rest) as Record<string, unknown>;
  jsonSchemaCache.set(schema, closed);
  return closed;
}

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (node === null || typeof node !== "object") return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // Under these keys sit maps of names to schemas, or values, not schemas of their own.
    copy[key] =
      key === "properties" || key === "$defs" || key === "definitions"
        ? Object.fromEntries(Object.entries(value as object).map(([name, entry]) => [name, closeObjects(entry)]))
        : key === "default" || key === "const" || key === "enum" || key === "examples"
          ? value
          : closeObjects(value);
  }
  if (copy.type === "object" && copy.properties !== undefined && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}
