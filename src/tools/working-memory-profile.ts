import { StoreError } from "../errors/store-error";
import type { Fact } from "../stores/memory-store";
import type { StoreBackend } from "../stores/store-backend";
import { WORKING_MEMORY_CHANGES_KEY, workingMemoryFieldKey, workingMemoryPathOf } from "../stores/working-memory-keys";
import type { WorkingMemoryField, WorkingMemorySchema } from "./working-memory-schema";
import type { WorkingMemoryPlan } from "./working-memory-patch";

/** Changes kept per profile (the newest win). */
export const WORKING_MEMORY_CHANGES_KEPT = 20;

/** When and by which message a field last changed. */
export interface WorkingMemoryFieldInfo {
  /** Dotted path of the field. */
  path: string;
  /** When it last changed (ms since epoch). */
  updatedAt: number;
  /** Id of the user message whose turn changed it, when a run did. */
  messageId?: string;
}

/** One change of a profile, as the change log keeps it. */
export interface WorkingMemoryChange {
  action: "set" | "delete";
  /** Dotted path of the field. */
  path: string;
  /** The value set (a `set`). */
  value?: unknown;
  at: number;
  messageId?: string;
  /** The session of the run that made it, when a run did. */
  sessionId?: string;
}

/** A profile as it is read: its value (`initial`, then the stored fields over it), each field's provenance, its recent changes. */
export interface WorkingMemorySnapshot<Profile = Record<string, unknown>> {
  profile: Profile;
  fields: WorkingMemoryFieldInfo[];
  /** The last changes, oldest first (at most 20). */
  changes: WorkingMemoryChange[];
}

/** A field fact's value: the field's value, or a tombstone over a field that `initial` sets. */
type StoredField = { value: unknown } | { deleted: true };

/** Where a profile lives and what it starts from. */
export interface WorkingMemoryPlace {
  store: StoreBackend;
  schema: WorkingMemorySchema;
  /** The profile's value before anything is stored (checked at construction). */
  initial: WorkingMemoryPlan["writes"];
  scopeId: string;
}

/** Reads a profile from its scope's facts. A field the schema no longer has, or whose value it no longer takes, is left out. */
export async function readWorkingMemory(place: WorkingMemoryPlace, sessionId?: string): Promise<WorkingMemorySnapshot> {
  const facts = await place.store.getFacts(place.scopeId, sessionId);
  const stored = new Map<string, { fact: Fact; field: StoredField }>();
  let changes: WorkingMemoryChange[] = [];
  for (const fact of facts) {
    if (fact.key === WORKING_MEMORY_CHANGES_KEY) changes = parseStored(place, fact) as WorkingMemoryChange[];
    else if (workingMemoryPathOf(fact.key) !== undefined)
      stored.set(fact.key, { fact, field: parseStored(place, fact) as StoredField });
  }
  const profile: Record<string, unknown> = {};
  const fields: WorkingMemoryFieldInfo[] = [];
  const initial = new Map(place.initial.map(({ field, value }) => [field, value]));
  for (const field of place.schema.fields) {
    const found = stored.get(workingMemoryFieldKey(field.path));
    if (found === undefined) {
      if (initial.has(field)) putAt(profile, field.path, structuredClone(initial.get(field)));
      continue;
    }
    // A value the schema no longer takes (the schema changed since) is left out of the profile, not deleted.
    const kept = found.field as Partial<{ value: unknown }> | null;
    if (kept !== null && typeof kept === "object" && "value" in kept && field.schema.safeParse(kept.value).success)
      putAt(profile, field.path, kept.value);
    fields.push({
      path: field.path.join("."),
      updatedAt: found.fact.updatedAt,
      ...(found.fact.messageId === undefined ? {} : { messageId: found.fact.messageId }),
    });
  }
  return { profile, fields, changes: Array.isArray(changes) ? changes : [] };
}

/**
 * Writes a checked patch: one fact per field, each write atomic on its own (two writers changing
 * different fields both land), fenced by `sessionId`'s lock where given. Then the change log, a
 * read-modify-write serialised per scope in this process (writers in two processes at once may
 * drop a log entry, never a field).
 */
export async function writeWorkingMemory(
  place: WorkingMemoryPlace,
  plan: WorkingMemoryPlan,
  meta: { sessionId?: string | undefined; messageId?: string | undefined },
): Promise<WorkingMemoryChange[]> {
  const now = Date.now();
  const provenance = meta.messageId === undefined ? {} : { messageId: meta.messageId };
  const initial = new Set(place.initial.map(({ field }) => field));
  const fact = (field: WorkingMemoryField, stored: StoredField): Fact => ({
    key: workingMemoryFieldKey(field.path),
    value: JSON.stringify(stored),
    createdAt: now,
    updatedAt: now,
    ...provenance,
  });
  await Promise.all([
    ...plan.writes.map(({ field, value }) =>
      place.store.setFact(place.scopeId, fact(field, { value }), meta.sessionId),
    ),
    ...plan.deletes.map((field) =>
      // A field `initial` sets is deleted with a tombstone: else the initial value would come back.
      initial.has(field)
        ? place.store.setFact(place.scopeId, fact(field, { deleted: true }), meta.sessionId)
        : place.store.deleteFact(place.scopeId, workingMemoryFieldKey(field.path), meta.sessionId),
    ),
  ]);
  const changes: WorkingMemoryChange[] = [
    ...plan.writes.map(({ field, value }) => ({ action: "set" as const, path: field.path.join("."), value, at: now })),
    ...plan.deletes.map((field) => ({ action: "delete" as const, path: field.path.join("."), at: now })),
  ].map((change) => ({
    ...change,
    ...provenance,
    ...(meta.sessionId === undefined ? {} : { sessionId: meta.sessionId }),
  }));
  if (changes.length > 0) await logChanges(place, changes, meta.sessionId);
  return changes;
}

async function logChanges(
  place: WorkingMemoryPlace,
  changes: WorkingMemoryChange[],
  sessionId?: string,
): Promise<void> {
  await place.store.exclusive(`working-memory:${place.scopeId}`, async () => {
    const facts = await place.store.getFacts(place.scopeId, sessionId);
    const current = facts.find((fact) => fact.key === WORKING_MEMORY_CHANGES_KEY);
    const previous = current === undefined ? [] : (parseStored(place, current) as WorkingMemoryChange[]);
    const kept = [...(Array.isArray(previous) ? previous : []), ...changes].slice(-WORKING_MEMORY_CHANGES_KEPT);
    const now = Date.now();
    await place.store.setFact(
      place.scopeId,
      {
        key: WORKING_MEMORY_CHANGES_KEY,
        value: JSON.stringify(kept),
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
      },
      sessionId,
    );
  });
}

function parseStored(place: WorkingMemoryPlace, fact: Fact): unknown {
  try {
    return JSON.parse(fact.value);
  } catch (error) {
    throw new StoreError({
      store: place.store.name,
      operation: "getFacts",
      message: `The working memory fact "${fact.key}" of "${place.scopeId}" is not JSON; delete it or restore it from a backup.`,
      cause: error,
    });
  }
}

function putAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of path.slice(0, -1)) {
    if (!Object.hasOwn(node, segment))
      Object.defineProperty(node, segment, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[segment] as Record<string, unknown>;
  }
  Object.defineProperty(node, path[path.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
}

/** A stored field as a tool without the schema sees it (the inspector, the CLI). */
export interface StoredWorkingMemoryField extends WorkingMemoryFieldInfo {
  value: unknown;
}

/**
 * The working memory among a scope's facts, read without its schema (the CLI and the inspector do
 * not know the agent's): the stored fields, sorted by path, and the recent changes. Undefined when
 * the scope holds none. A record that is not JSON is left out.
 */
export function storedWorkingMemory(
  facts: readonly Fact[],
): { fields: StoredWorkingMemoryField[]; changes: WorkingMemoryChange[] } | undefined {
  const fields: StoredWorkingMemoryField[] = [];
  let changes: WorkingMemoryChange[] = [];
  let found = false;
  for (const fact of facts) {
    const parsed = parseOrUndefined(fact.value);
    if (fact.key === WORKING_MEMORY_CHANGES_KEY) {
      found = true;
      if (Array.isArray(parsed)) changes = parsed as WorkingMemoryChange[];
      continue;
    }
    const path = workingMemoryPathOf(fact.key);
    if (path === undefined) continue;
    found = true;
    if (parsed === null || typeof parsed !== "object" || !("value" in parsed)) continue;
    fields.push({
      path: path.join("."),
      value: (parsed as { value: unknown }).value,
      updatedAt: fact.updatedAt,
      ...(fact.messageId === undefined ? {} : { messageId: fact.messageId }),
    });
  }
  if (!found) return undefined;
  return { fields: fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), changes };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
