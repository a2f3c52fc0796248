import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { ToolDefinition } from "../models/language-model";
import { isJsonSchema } from "./json-schema";
import type { Tool, ToolSet } from "./tool";

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const definitionCache = new WeakMap<Tool, Record<string, unknown>>();

/** JSON schema of a tool's input, as sent to the model. Computed once per tool. */
export function toolInputJsonSchema(toolValue: Tool): Record<string, unknown> {
  const parameters = toolValue.parameters;
  if (isJsonSchema(parameters)) return parameters.jsonSchema;
  let schema = definitionCache.get(toolValue);
  if (!schema) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(parameters, { io: "input" }) as Record<string, unknown>;
    schema = rest;
    definitionCache.set(toolValue, schema);
  }
  return schema;
}

/** Whether a tool name is one every provider accepts (1-64 letters, digits, "_" or "-"). */
export function isValidToolName(name: string): boolean {
  return toolNamePattern.test(name);
}

/** Checks tool names (the strictest provider's rule) and returns the definitions for the model. */
export function toToolDefinitions(tools: ToolSet): ToolDefinition[] {
  return Object.entries(tools).map(([name, toolValue]) => {
    if (!isValidToolName(name)) {
      throw new InvalidArgumentError({
        argument: `tools.${name}`,
        value: name,
        message: `Tool name "${name}" must be 1-64 letters, digits, "_" or "-" (the providers' rule).`,
      });
    }
    return {
      name,
      ...(toolValue.description === undefined ? {} : { description: toolValue.description }),
      parameters: toolInputJsonSchema(toolValue),
    };
  });
}
