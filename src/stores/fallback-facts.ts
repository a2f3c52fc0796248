import type { Fact, FactRecord, MemoryStore } from "./memory-store";

/** The two shapes of a store's fact methods (see `MemoryStore`). */
export type FactShape = "rich" | "record";

/**
 * Where a scope's facts live in a store of the given shape. A rich store gets the scope id as is
 * (`session:<id>`, `user:<id>`). A key → value store (the AgentCore document's) gets a session's
 * facts under the bare session id its signature names, and a user's as `user:<id>`; a session id
 * that itself starts with `user:` or `session:` keeps its `session:` prefix, so the mapping stays
 * one-to-one and no session can reach a user's facts.
 */
export function factStoreKey(shape: FactShape, scopeId: string): string {
  if (shape === "rich" || !scopeId.startsWith("session:")) return scopeId;
  const sessionId = scopeId.slice("session:".length);
  return sessionId.startsWith("user:") || sessionId.startsWith("session:") ? scopeId : sessionId;
}

function isFactRecord(value: unknown): value is FactRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A key → value record's facts: no timestamps (0), values as strings (a client that parses JSON values gets them back as text). */
function recordToFacts(record: FactRecord): Fact[] {
  return Object.entries(record as Record<string, unknown>).flatMap(([key, value]) =>
    value === undefined || value === null
      ? []
      : [{ key, value: typeof value === "string" ? value : JSON.stringify(value), createdAt: 0, updatedAt: 0 }],
  );
}

/**
 * The fact methods of a store, whichever shape it has. The shape is what `getFacts` returns (an
 * array: rich; a plain object: key → value), remembered from the first answer; a first write
 * with no read before it reads once first. `setFact`'s declared parameters (three: key → value,
 * two: rich) give the first read's guess, and the shape when reads answer nothing; a guess that
 * the first answer contradicts is corrected by reading again under the right key. Used by the fallback backend (a user's store: its fact writes are not fenced),
 * and by a built-in store's backend for a subclass that overrides its fact methods.
 */
export function fallbackFacts(store: MemoryStore) {
  const arity = store.setFact.length;
  const declared: FactShape | undefined = arity >= 3 ? "record" : arity === 2 ? "rich" : undefined;
  let observed: FactShape | undefined;

  const get = async (scopeId: string): Promise<Fact[]> => {
    let guess = observed ?? declared ?? "rich";
    for (let attempt = 0; ; attempt++) {
      const raw: unknown = await store.getFacts(factStoreKey(guess, scopeId));
      if (raw === undefined || raw === null) return [];
      const actual: FactShape | undefined = Array.isArray(raw) ? "rich" : isFactRecord(raw) ? "record" : undefined;
      if (actual === undefined) {
        throw new TypeError(
          `getFacts returned ${typeof raw}; it must return Fact[] or a key → value record (Record<string, string>).`,
        );
      }
      if (actual === guess || attempt > 0) {
        observed = actual;
        return actual === "rich" ? (raw as Fact[]) : recordToFacts(raw as FactRecord);
      }
      guess = actual;
    }
  };
  /** The shape to write in: what a read showed (one read first, before the first write without one), else the declared one. */
  const shape = async (scopeId: string): Promise<FactShape> => {
    if (!observed) await get(scopeId);
    return observed ?? declared ?? "rich";
  };
  return {
    get,
    set: async (scopeId: string, fact: Fact): Promise<void> => {
      const kind = await shape(scopeId);
      if (kind === "rich") await store.setFact(scopeId, fact);
      else await store.setFact(factStoreKey(kind, scopeId), fact.key, fact.value);
    },
    delete: async (scopeId: string, key: string): Promise<void> => {
      const kind = await shape(scopeId);
      await store.deleteFact(factStoreKey(kind, scopeId), key);
    },
  };
}

/** The session a fact call belongs to, for its errors: the run's, or the one a `session:<id>` scope names. */
export function sessionOfScope(scopeId: string, sessionId: string | undefined): string | undefined {
  if (sessionId !== undefined) return sessionId;
  return scopeId.startsWith("session:") ? scopeId.slice("session:".length) : undefined;
}
