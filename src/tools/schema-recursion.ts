/** Deepest nesting of a JSON Schema accepted (objects and arrays); deeper is refused. */
export const MAX_SCHEMA_DEPTH = 200;

/** Keywords whose subschemas apply to the same value as the schema: following them goes no deeper into the input. */
const inPlaceSingle = ["not", "if", "then", "else"] as const;
const inPlaceLists = ["allOf", "anyOf", "oneOf"] as const;

type SchemaNode = Record<string, unknown>;

/**
 * Why a JSON Schema cannot be used to check input, or undefined when it can. A validator follows
 * a `$ref` (and `allOf` / `anyOf` / `oneOf` / `not` / `if`) without moving into the input, so a
 * loop made only of those (`$defs: { a: { $ref: "#/$defs/a" } }`) recurses forever on any value;
 * a loop through `properties` or `items` is a recursive type (a tree), which is fine. Only local
 * references (`#`, `#/$defs/…`) are followed. Iterative: a hostile schema cannot overflow the stack.
 */
export function unusableSchemaReason(schema: SchemaNode): string | undefined {
  const nodes = collectNodes(schema);
  if (nodes === undefined) return `it is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  const state = new Map<SchemaNode, "visiting" | "done">();
  for (const [start] of nodes) {
    if (state.has(start)) continue;
    // Depth-first over the in-place edges; reaching a node still being visited closes a loop.
    const stack: { node: SchemaNode; next: SchemaNode[] }[] = [{ node: start, next: inPlaceTargets(schema, start) }];
    state.set(start, "visiting");
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const target = top.next.pop();
      if (target === undefined) {
        state.set(top.node, "done");
        stack.pop();
        continue;
      }
      const seen = state.get(target);
      if (seen === "visiting") {
        return `"${nodes.get(target)}" refers back to itself (through $ref, allOf, anyOf, oneOf, not or if) without describing any deeper part of the input, so checking any value would never end`;
      }
      if (seen === undefined) {
        state.set(target, "visiting");
        stack.push({ node: target, next: inPlaceTargets(schema, target) });
      }
    }
  }
  return undefined;
}

/** Every object in the schema with its JSON pointer; undefined when the schema is nested too deep. */
function collectNodes(schema: SchemaNode): Map<SchemaNode, string> | undefined {
  const nodes = new Map<SchemaNode, string>();
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value: schema, pointer: "#", depth: 1 }];
  while (stack.length > 0) {
    const { value, pointer, depth } = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_SCHEMA_DEPTH) return undefined;
    if (!Array.isArray(value)) {
      if (nodes.has(value as SchemaNode)) continue;
      nodes.set(value as SchemaNode, pointer);
    }
    for (const [key, child] of Object.entries(value)) {
      const escaped = key.replaceAll("~", "~0").replaceAll("/", "~1");
      stack.push({ value: child, pointer: `${pointer}/${escaped}`, depth: depth + 1 });
    }
  }
  return nodes;
}

/** The subschemas a validator applies to the same value as `node`. */
function inPlaceTargets(root: SchemaNode, node: SchemaNode): SchemaNode[] {
  const targets: SchemaNode[] = [];
  const add = (value: unknown) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) targets.push(value as SchemaNode);
  };
  if (typeof node.$ref === "string") add(resolveLocalReference(root, node.$ref));
  for (const key of inPlaceSingle) add(node[key]);
  for (const key of inPlaceLists) if (Array.isArray(node[key])) for (const entry of node[key]) add(entry);
  const dependent = node.dependentSchemas;
  if (dependent !== null && typeof dependent === "object") for (const entry of Object.values(dependent)) add(entry);
  return targets;
}

/** The value a local reference (`#`, `#/$defs/a`) points at in `root`; undefined for any other reference. */
function resolveLocalReference(root: SchemaNode, reference: string): unknown {
  if (reference !== "#" && !reference.startsWith("#/")) return undefined;
  let value: unknown = root;
  for (const raw of reference === "#" ? [] : reference.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}
