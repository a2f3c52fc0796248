import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { exceedsDepth, MAX_TOOL_ARGUMENTS_DEPTH } from "../messages/tool-arguments-depth";
import { unusableSchemaReason } from "./schema-recursion";

/** The issue of arguments nested deeper than `MAX_TOOL_ARGUMENTS_DEPTH`. */
export const TOO_DEEP_ISSUE = `nested deeper than ${MAX_TOOL_ARGUMENTS_DEPTH} levels of objects and arrays, the limit for tool arguments; call it again with flatter arguments`;

const marker = Symbol.for("agentcore.tools.jsonSchema");

/** What checking a tool's input found: the input to pass on, or what is wrong with it. */
export type ToolInputValidation<Input> = { success: true; value: Input } | { success: false; issues: string[] };

/**
 * A tool input described by a JSON Schema instead of a zod schema (a tool from an MCP server, an
 * OpenAPI operation, a schema loaded from a file). Make one with `jsonSchema()`.
 */
export interface JsonSchema<Input = Record<string, unknown>> {
  readonly [marker]: true;
  /** The schema sent to the model, as given (without `$schema`). */
  readonly jsonSchema: Record<string, unknown>;
  /** Checks the model's arguments before `execute` runs. */
  readonly validate: (value: unknown) => ToolInputValidation<Input>;
}

export interface JsonSchemaOptions<Input> {
  /**
   * Checks the model's arguments. Return `{ success: false, issues }` to send the issues back to
   * the model as a tool error. Default: the schema's structure, checked by zod's
   * `z.fromJSONSchema` (types, `required`, `properties`, `additionalProperties: false`, `enum`,
   * `const`, length, range and `pattern` bounds, `items`, `anyOf` / `oneOf` / `allOf`, local
   * `$ref`); `format` is left to the tool. A schema zod cannot express (`not`, `if` / `then`,
   * `unevaluatedProperties`, `dependentRequired`, external `$ref`) is checked only for being an
   * object. The arguments reach `execute` as the model wrote them (no defaults filled in).
   */
  validate?: (value: unknown) => ToolInputValidation<Input>;
}

/**
 * Describes a tool's input with a JSON Schema, for `tool({ parameters: jsonSchema({...}) })`.
 * The schema must describe an object (`type: "object"`), as every provider requires. A schema
 * that recurses is fine when each turn of the recursion describes a deeper part of the input (a
 * tree whose `children` refer back to the node); one that refers back to itself without (`$defs:
 * { a: { $ref: "#/$defs/a" } }`, or through `allOf` / `anyOf` / `oneOf` alone) can check nothing
 * and is an `InvalidArgumentError`, as is a schema nested deeper than 200 levels.
 */
export function jsonSchema<Input = Record<string, unknown>>(
  schema: Record<string, unknown>,
  options: JsonSchemaOptions<Input> = {},
): JsonSchema<Input> {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || schema.type !== "object") {
    throw new InvalidArgumentError({
      argument: "schema",
      value: schema,
      message:
        'jsonSchema() needs a JSON Schema of an object, e.g. { type: "object", properties: { city: { type: "string" } } }.',
    });
  }
  const unusable = unusableSchemaReason(schema);
  if (unusable !== undefined) {
    throw new InvalidArgumentError({
      argument: "schema",
      value: schema,
      message: `jsonSchema() cannot use this schema: ${unusable}.`,
    });
  }
  const { $schema: _ignored, ...rest } = schema;
  let validate = options.validate;
  return {
    [marker]: true,
    jsonSchema: rest,
    validate: (value) => (validate ??= structureValidator<Input>(schema))(value),
  };
}

/** Whether a tool's `parameters` is a JSON Schema made by `jsonSchema()` (else it is a zod schema). */
// `any`: the guard only tells the two kinds of schema apart, whatever the input type.
export function isJsonSchema(value: unknown): value is JsonSchema<any> {
  return typeof value === "object" && value !== null && (value as { [marker]?: unknown })[marker] === true;
}

/** The default check: the schema's structure through zod, formats left out; objects only when zod cannot read the schema. */
function structureValidator<Input>(schema: Record<string, unknown>): (value: unknown) => ToolInputValidation<Input> {
  let checker: z.ZodType;
  try {
    checker = z.fromJSONSchema(withoutFormats(schema) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    checker = z.record(z.string(), z.unknown());
  }
  return (value) => {
    // Arguments deeper than the bound are refused before any recursive check runs on them.
    if (exceedsDepth(value, MAX_TOOL_ARGUMENTS_DEPTH))
      return { success: false, issues: [`(input): ${TOO_DEEP_ISSUE}`] };
    const result = checker.safeParse(value);
    if (result.success) return { success: true, value: value as Input };
    return {
      success: false,
      issues: result.error.issues.map(
        (issue) => `${issue.path.length ? issue.path.join(".") : "(input)"}: ${issue.message}`,
      ),
    };
  };
}

/** A copy of the schema without `format` keywords (annotations in JSON Schema 2020-12; the tool decides). */
function withoutFormats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFormats);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    // A property named "format" has a schema (an object) as its value; the keyword has a string.
    if (key === "format" && typeof entry === "string") continue;
    copy[key] = withoutFormats(entry);
  }
  return copy;
}
