import type { Fact } from "../memory-store";
import { validateScopeId } from "../../messages/session-id";
import { parseStoredJson } from "../stored-json";
import type { FencedFacts } from "../built-in-store-parts";
import type { PostgresSessionLeases } from "./postgres-session-leases";

type Query = <Row extends object>(
  operation: string,
  sessionId: string | undefined,
  sql: string,
  values: unknown[],
) => Promise<Row[]>;

/** What a fenced write needs of the store's session leases (`PostgresSessionLeases`). */
type Fencing = Pick<PostgresSessionLeases, "tokenOf" | "fence" | "lostError">;

/**
 * The facts of `PostgresMemoryStore` (`<prefix>facts`: one row per scope and key, the fact's JSON
 * in `body`). Each write is one statement. A write naming its writer's session (a run's, through
 * `FencedFacts`) is fenced in that statement by the lease this store holds on that session, as
 * an append is (`fence`): refused with `SessionLockLostError`, nothing written, once the lease was
 * taken over. Without a writer, or a lease held on its session, it is not fenced.
 */
export class PostgresFacts implements FencedFacts {
  constructor(
    private readonly table: string,
    private readonly query: Query,
    private readonly store: string,
    private readonly leases: Fencing,
  ) {}

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    const rows = await this.query<{ key: string; body: string }>(
      "getFacts",
      scopeId,
      `SELECT key, body FROM ${this.table} WHERE scope_id = $1 ORDER BY key`,
      [scopeId],
    );
    const read = { store: this.store, operation: "getFacts", sessionId: scopeId };
    return rows.map((row) => parseStoredJson<Fact>(row.body, { ...read, record: `fact "${row.key}"` }));
  }

  async factScopes(): Promise<string[]> {
    const rows = await this.query<{ scope_id: string }>(
      "factScopes",
      undefined,
      `SELECT scope_id FROM ${this.table} GROUP BY scope_id ORDER BY scope_id COLLATE "C"`,
      [],
    );
    return rows.map((row) => row.scope_id);
  }

  /** Upserts a fact in one statement, fenced by the lease this store holds on `writer`'s session, if any. */
  async setFact(scopeId: string, fact: Fact, writer?: string): Promise<void> {
    validateScopeId(scopeId);
    const rows = await this.query<{ ok: boolean }>(
      "setFact",
      writer ?? scopeId,
      `WITH ${this.leases.fence(1, 2)},
       written AS (
         INSERT INTO ${this.table} (scope_id, key, body) SELECT $3, $4, $5 WHERE (SELECT ok FROM permitted)
         ON CONFLICT (scope_id, key) DO UPDATE SET body = EXCLUDED.body)
       SELECT ok FROM permitted`,
      [writer ?? null, this.tokenOf(writer), scopeId, fact.key, JSON.stringify(fact)],
    );
    if (rows[0]?.ok !== true) throw this.leases.lostError("setFact", writer!);
  }

  /** Deletes a fact in one statement, fenced as `setFact` is; resolves to whether it existed. */
  async deleteFact(scopeId: string, key: string, writer?: string): Promise<boolean> {
    validateScopeId(scopeId);
    const rows = await this.query<{ ok: boolean; deleted: boolean }>(
      "deleteFact",
      writer ?? scopeId,
      `WITH ${this.leases.fence(1, 2)},
       deleted AS (
         DELETE FROM ${this.table} WHERE scope_id = $3 AND key = $4 AND (SELECT ok FROM permitted) RETURNING key)
       SELECT ok, EXISTS (SELECT 1 FROM deleted) AS deleted FROM permitted`,
      [writer ?? null, this.tokenOf(writer), scopeId, key],
    );
    if (rows[0]?.ok !== true) throw this.leases.lostError("deleteFact", writer!);
    return rows[0].deleted;
  }

  /** The lease token a write of `writer` must hold: null (not fenced) without a writer, or without a lease held on its session. */
  private tokenOf(writer: string | undefined): string | null {
    return writer === undefined ? null : this.leases.tokenOf(writer);
  }
}
