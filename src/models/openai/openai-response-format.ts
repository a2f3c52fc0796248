import type { ResponseFormat } from "../language-model";

/** Keywords OpenAI's strict mode does not take (its "Supported schemas" guide). */
const UNSUPPORTED_IN_STRICT = new Set([
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "unevaluatedProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
]);

/**
 * The Chat Completions `response_format` of a call's `responseFormat`: `json_schema`, strict when
 * the schema allows it. Strict mode (the reply is guaranteed to match) needs every object to list
 * all its properties in `required` and to set `additionalProperties: false`; an optional field is
 * written as required and nullable (`.nullable()` in zod, as OpenAI documents). A schema with a
 * field left out of `required` (`.optional()`), or a keyword strict mode lacks, is sent with
 * `strict: false`: the model is asked for it, and the agent validates and retries.
 */
export function openAIResponseFormat(format: ResponseFormat) {
  return {
    type: "json_schema" as const,
    json_schema: {
      name: format.name ?? "response",
      ...(format.description === undefined ? {} : { description: format.description }),
      schema: format.schema,
      strict: allowsStrict(format.schema),
    },
  };
}

/** Whether a JSON schema meets OpenAI's strict-mode rules (objects closed, every property required, supported keywords). */
export function allowsStrict(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(allowsStrict);
  if (schema === null || typeof schema !== "object") return true;
  const node = schema as Record<string, unknown>;
  for (const key of Object.keys(node)) if (UNSUPPORTED_IN_STRICT.has(key)) return false;
  if (node.type === "object" || node.properties !== undefined) {
    if (node.additionalProperties !== false) return false;
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    if (Object.keys(properties).some((name) => !required.has(name))) return false;
    if (!Object.values(properties).every(allowsStrict)) return false;
  }
  for (const key of ["items", "prefixItems", "anyOf", "oneOf"]) {
    if (node[key] !== undefined && !allowsStrict(node[key])) return false;
  }
  for (const key of ["$defs", "definitions"]) {
    const definitions = node[key];
    if (definitions && typeof definitions === "object" && !Object.values(definitions).every(allowsStrict)) return false;
  }
  return true;
}
