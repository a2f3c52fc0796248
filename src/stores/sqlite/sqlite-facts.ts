// The facts of SqliteMemoryStore (`<prefix>facts`: one row per scope and key, the fact's JSON).
import { validateScopeId } from "../../messages/session-id";
import type { FencedFacts } from "../built-in-store-parts";
import type { Fact } from "../memory-store";
import { parseStoredJson } from "../stored-json";
import type { SqliteStatements } from "./sqlite-statements";

type Run = <T>(operation: string, sessionId: string | undefined, body: () => T) => T;

/**
 * Reads and writes a store's facts, each write one statement. A write naming its writer's session
 * (a run's, through `FencedFacts`) runs in a `BEGIN IMMEDIATE` transaction that first checks the
 * lock this store holds on that session, as its other fenced writes do: refused with
 * `SessionLockLostError`, nothing written, once the lock was taken over. Without a writer, or a
 * lock held on its session, it is not fenced.
 */
export class SqliteFacts implements FencedFacts {
  constructor(
    private readonly statements: SqliteStatements,
    private readonly store: string,
    /** The store's error wrapping of one statement. */
    private readonly wrap: Run,
    /** The store's transaction fenced by the session's lock (`sessionId` is the writer's). */
    private readonly fencedWrite: <T>(operation: string, sessionId: string, body: () => T) => T,
  ) {}

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    const rows = this.wrap(
      "getFacts",
      scopeId,
      () => this.statements.facts.all(scopeId) as { key: string; body: string }[],
    );
    const read = { store: this.store, operation: "getFacts", sessionId: scopeId };
    return rows.map((row) => parseStoredJson<Fact>(row.body, { ...read, record: `fact "${row.key}"` }));
  }

  async factScopes(): Promise<string[]> {
    const rows = this.wrap("factScopes", undefined, () => this.statements.factScopes.all() as { scope_id: string }[]);
    return rows.map((row) => row.scope_id);
  }

  async setFact(scopeId: string, fact: Fact, writer?: string): Promise<void> {
    validateScopeId(scopeId);
    this.write("setFact", scopeId, writer, () => this.statements.setFact.run(scopeId, fact.key, JSON.stringify(fact)));
  }

  /** Resolves to whether the fact existed. */
  async deleteFact(scopeId: string, key: string, writer?: string): Promise<boolean> {
    validateScopeId(scopeId);
    return this.write("deleteFact", scopeId, writer, () => this.statements.deleteFact.run(scopeId, key).changes > 0);
  }

  private write<T>(operation: string, scopeId: string, writer: string | undefined, body: () => T): T {
    return writer === undefined ? this.wrap(operation, scopeId, body) : this.fencedWrite(operation, writer, body);
  }
}
