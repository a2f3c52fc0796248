import type { WorkingMemoryField, WorkingMemoryNode, WorkingMemorySchema } from "./working-memory-schema";

/** A change to a profile: `set` deep-merges (arrays replaced; `null` or absent keeps), `delete` removes (dotted paths). */
export interface WorkingMemoryPatch<Profile = Record<string, unknown>> {
  set?: WorkingMemoryPartial<Profile> | undefined;
  delete?: string[] | undefined;
}

/** A profile with every field optional, at every depth of objects (arrays are values: given whole). */
export type WorkingMemoryPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: WorkingMemoryPartial<T[K]> | null }
    : T;

/** A checked patch: the fields to write (with their parsed values) and the fields to delete. */
export interface WorkingMemoryPlan {
  writes: { field: WorkingMemoryField; value: unknown }[];
  deletes: WorkingMemoryField[];
}

/**
 * Checks a patch against the profile's schema: every `set` value against its field's schema,
 * every `delete` path against the profile's fields. Returns the plan, or every issue found (a
 * patch with an issue writes nothing). `null` and absent fields in `set` are left as they are.
 */
export function planWorkingMemoryPatch(
  schema: WorkingMemorySchema,
  patch: unknown,
): { plan: WorkingMemoryPlan } | { issues: string[] } {
  const issues: string[] = [];
  const plan: WorkingMemoryPlan = { writes: [], deletes: [] };
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) {
    return { issues: ['The input must be an object: { "set": { ...fields to change }, "delete": ["dotted.path"] }.'] };
  }
  for (const key of Object.keys(patch)) {
    if (key !== "set" && key !== "delete") issues.push(`"${key}" is not an input: use "set" and "delete".`);
  }
  const { set, delete: deletes } = patch as { set?: unknown; delete?: unknown };
  if (set !== undefined && set !== null) collectSet(schema.root, set, plan, issues);
  if (deletes !== undefined && deletes !== null) {
    if (!Array.isArray(deletes) || deletes.some((path) => typeof path !== "string")) {
      issues.push('"delete" must be an array of dotted paths, e.g. ["contact.phone"].');
    } else {
      for (const path of deletes as string[]) collectDelete(schema, path, plan, issues);
    }
  }
  const written = new Set(plan.writes.map(({ field }) => field));
  for (const field of plan.deletes) {
    if (written.has(field)) issues.push(`${field.path.join(".")}: both set and deleted; do one or the other.`);
  }
  return issues.length > 0 ? { issues } : { plan };
}

function collectSet(
  node: WorkingMemoryNode & { kind: "object" },
  value: unknown,
  plan: WorkingMemoryPlan,
  issues: string[],
): void {
  const where = node.path.length ? `set.${node.path.join(".")}` : "set";
  if (typeof value !== "object" || Array.isArray(value) || value === null) {
    issues.push(`${where}: expected an object of fields to change, got ${describe(value)}.`);
    return;
  }
  for (const [name, child] of Object.entries(value)) {
    // Absent and null fields keep their values (a provider's strict mode pads absent fields with null).
    if (child === undefined || child === null) continue;
    const target = node.children.get(name);
    if (target === undefined) {
      issues.push(`${where}.${name}: no such field. Fields here: ${[...node.children.keys()].join(", ") || "(none)"}.`);
    } else if (target.kind === "object") {
      collectSet(target, child, plan, issues);
    } else {
      const parsed = target.field.schema.safeParse(child);
      if (parsed.success) plan.writes.push({ field: target.field, value: parsed.data });
      else
        for (const issue of parsed.error.issues)
          issues.push(`set.${[...target.field.path, ...issue.path.map(String)].join(".")}: ${issue.message}`);
    }
  }
}

function collectDelete(schema: WorkingMemorySchema, path: string, plan: WorkingMemoryPlan, issues: string[]): void {
  let node: WorkingMemoryNode = schema.root;
  for (const segment of path.split(".")) {
    const next: WorkingMemoryNode | undefined = node.kind === "object" ? node.children.get(segment) : undefined;
    if (next === undefined) {
      issues.push(
        `delete "${path}": no such field. Fields: ${schema.fields.map((field) => field.path.join(".")).join(", ")}.`,
      );
      return;
    }
    node = next;
  }
  plan.deletes.push(...fieldsUnder(node));
}

function fieldsUnder(node: WorkingMemoryNode): WorkingMemoryField[] {
  return node.kind === "field" ? [node.field] : [...node.children.values()].flatMap(fieldsUnder);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `the string ${JSON.stringify(value.slice(0, 40))}` : `${typeof value}`;
}
