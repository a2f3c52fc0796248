import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";

/** One field of a profile: a leaf of its schema (anything but an object), addressed by its path. */
export interface WorkingMemoryField {
  path: readonly string[];
  /** The field's schema as declared (optional, nullable and defaults included). */
  schema: z.ZodType;
}

/** A node of the profile's schema: an object (its fields by name) or a field. */
export type WorkingMemoryNode =
  | { kind: "object"; path: readonly string[]; children: ReadonlyMap<string, WorkingMemoryNode> }
  | { kind: "field"; field: WorkingMemoryField };

/** A working memory schema, read once at construction. */
export interface WorkingMemorySchema {
  readonly schema: z.ZodObject;
  readonly root: WorkingMemoryNode & { kind: "object" };
  /** Every field, in the schema's order (the order the profile is rendered in). */
  readonly fields: readonly WorkingMemoryField[];
  /** Characters of the largest profile the schema allows, rendered (values' JSON, paths and punctuation). */
  readonly maxChars: number;
}

/** Wrappers whose inner schema says what the value is. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (WRAPPERS.has(current._zod.def.type))
    current = (current._zod.def as unknown as { innerType: z.ZodType }).innerType;
  return current;
}

/**
 * Reads a profile schema: a zod object whose fields are bounded (every string and array has a
 * `.max()`), and whose largest profile, rendered, fits in `maxChars`. Anything else is an
 * `InvalidArgumentError` naming the field and the fix.
 */
export function readWorkingMemorySchema(schema: unknown, maxChars: number): WorkingMemorySchema {
  if (!(schema instanceof z.ZodObject)) {
    throw new InvalidArgumentError({
      argument: "workingMemory.schema",
      value: schema,
      message: "workingMemory.schema must be a zod object, e.g. z.object({ name: z.string().max(100).optional() }).",
    });
  }
  const fields: WorkingMemoryField[] = [];
  const root = readObject(schema, [], fields);
  const sizes = fields.map((field) => ({ field, chars: lineChars(field) }));
  const total = sizes.reduce((sum, { chars }) => sum + chars, 0);
  if (total > maxChars) {
    const largest = [...sizes]
      .sort((a, b) => b.chars - a.chars)
      .slice(0, 3)
      .map(({ field, chars }) => `${field.path.join(".")}: ${chars}`);
    throw new InvalidArgumentError({
      argument: "workingMemory.schema",
      message: `workingMemory.schema allows a profile of up to ${total} characters, more than workingMemory.maxChars (${maxChars}). Lower the .max() of its largest fields (${largest.join(", ")}) or raise workingMemory.maxChars.`,
    });
  }
  return { schema, root, fields, maxChars: total };
}

function readObject(
  schema: z.ZodObject,
  path: string[],
  fields: WorkingMemoryField[],
): WorkingMemoryNode & { kind: "object" } {
  const children = new Map<string, WorkingMemoryNode>();
  for (const [name, child] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const childPath = [...path, name];
    const inner = unwrap(child);
    if (inner instanceof z.ZodObject) children.set(name, readObject(inner, childPath, fields));
    else {
      const field = { path: childPath, schema: child };
      valueChars(inner, childPath); // refuses an unbounded field now
      fields.push(field);
      children.set(name, { kind: "field", field });
    }
  }
  return { kind: "object", path, children };
}

/** Characters of a field's rendered line at most: `- "path": <value JSON>`. */
function lineChars(field: WorkingMemoryField): number {
  return 5 + JSON.stringify(field.path.join(".")).length + valueChars(unwrap(field.schema), field.path);
}

/** Characters of a value's JSON at most (a string's characters counted once each). */
function valueChars(schema: z.ZodType, path: readonly string[]): number {
  const def = schema._zod.def as { type: string } & Record<string, unknown>;
  switch (def.type) {
    case "string": {
      const max = maximumOf(schema);
      if (max === undefined) throw unbounded(path, "a string", "z.string().max(200)");
      return max + 2;
    }
    case "number":
    case "int":
    case "bigint":
      return 24;
    case "boolean":
      return 5;
    case "null":
      return 4;
    case "date":
      return 26;
    case "enum":
      return Math.max(
        4,
        ...Object.values(def.entries as Record<string, unknown>).map((value) => JSON.stringify(value).length),
      );
    case "literal":
      return Math.max(4, ...(def.values as unknown[]).map((value) => JSON.stringify(value)?.length ?? 4));
    case "array": {
      const max = maximumOf(schema);
      if (max === undefined) throw unbounded(path, "an array", "z.array(z.string().max(50)).max(10)");
      return 2 + max * (valueChars(unwrap(def.element as z.ZodType), path) + 1);
    }
    case "union":
      return Math.max(...(def.options as z.ZodType[]).map((option) => valueChars(unwrap(option), path)));
    case "object": {
      // An object inside an array or a union: its fields are one value.
      let chars = 2;
      for (const [name, child] of Object.entries((schema as z.ZodObject).shape as Record<string, z.ZodType>))
        chars += JSON.stringify(name).length + 2 + valueChars(unwrap(child), [...path, name]);
      return chars;
    }
    default:
      throw new InvalidArgumentError({
        argument: "workingMemory.schema",
        message: `workingMemory.schema: the field "${path.join(".")}" is a ${def.type}, whose size has no bound. Use strings and arrays with a .max(), numbers, booleans, enums, literals, unions of those, or nested z.object()s.`,
      });
  }
}

function unbounded(path: readonly string[], what: string, example: string): InvalidArgumentError {
  return new InvalidArgumentError({
    argument: "workingMemory.schema",
    message: `workingMemory.schema: the field "${path.join(".")}" is ${what} with no .max(). The profile is rendered into every system prompt, so its size is bounded: give it a maximum, e.g. ${example}.`,
  });
}

/** A string's or an array's `.max()`. */
function maximumOf(schema: z.ZodType): number | undefined {
  let max: number | undefined;
  for (const check of (schema._zod.def as { checks?: { _zod: { def: Record<string, unknown> } }[] }).checks ?? []) {
    const def = check._zod.def;
    const bound = def.check === "max_length" ? def.maximum : def.check === "length_equals" ? def.length : undefined;
    if (typeof bound === "number") max = max === undefined ? bound : Math.min(max, bound);
  }
  return max;
}

/**
 * The JSON schema of the profile as a deep partial, for the tool's `set`: no field required and
 * objects left open, so no provider pads absent fields (the tool is never sent in strict mode).
 */
export function deepPartialJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return loosen(json) as Record<string, unknown>;
}

function loosen(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(loosen);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === "required" && Array.isArray(entry)) continue;
    if (key === "additionalProperties" && entry === false) continue;
    copy[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(entry as object).map(([name, child]) => [name, loosen(child)]))
        : loosen(entry);
  }
  return copy;
}
