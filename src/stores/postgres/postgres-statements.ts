// How PostgresMemoryStore sends statements and reads their failures: prepared-statement names,
// the StoreError a failure becomes, whether a failure means the connection is gone, and the
// statements and transactions run on the pool once the tables are ready.
import { createHash } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { errorText } from "../../errors/error-text";
import { StoreError } from "../../errors/store-error";
import { AgentCoreError } from "../../errors/agent-core-error";

/** Statement names by text, shared by every store of the process (a name is derived from its text alone). */
const statementNames = new Map<string, string>();

/**
 * A statement as `pg` sends it, named after a hash of its text (so one name is one text, on every
 * connection): `pg` prepares it once per connection and then only binds and runs it.
 */
export function namedStatement(text: string, values: unknown[]): { text: string; values: unknown[]; name: string } {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `agentcore_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** A failure of `operation` as a StoreError of `store` (a StoreError already is one; other typed agentcore errors pass as they are). */
export function postgresStoreError(
  store: string,
  operation: string,
  sessionId: string | undefined,
  error: unknown,
): unknown {
  if (AgentCoreError.isInstance(error)) return error;
  return new StoreError({
    store,
    operation,
    ...(sessionId === undefined ? {} : { sessionId }),
    message: `PostgreSQL failed during ${operation}${sessionId === undefined ? "" : ` of session "${sessionId}"`}: ${errorText(error)}`,
    cause: error,
  });
}

/** Whether an error may mean the connection itself is gone (killed, reset, shut down). */
export function isConnectionError(error: unknown): boolean {
  if (StoreError.isInstance(error)) return false;
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return (
    typeof severity !== "string" || (typeof code === "string" && (code.startsWith("57P") || code.startsWith("08")))
  );
}

/**
 * Runs a store's statements on its pool, once its tables are ready (`migrate` runs on first use,
 * and again on the next use after it failed); a failure is a StoreError of the store.
 */
export class PostgresStatements {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly store: string,
    /** Send named prepared statements (the store's `preparedStatements` option). */
    private readonly preparedStatements: boolean,
    /** Creates or upgrades the tables (the store's `migrate`, which runs its own transaction). */
    private readonly migrate: () => Promise<void>,
  ) {}

  ensureReady(): Promise<void> {
    if (!this.ready) {
      this.ready = this.migrate().catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
    }
    return this.ready;
  }

  async query<Row extends object>(
    operation: string,
    sessionId: string | undefined,
    sql: string,
    values: unknown[],
  ): Promise<Row[]> {
    await this.ensureReady();
    try {
      return (await this.pool.query(this.statement(sql, values))).rows as Row[];
    } catch (error) {
      throw postgresStoreError(this.store, operation, sessionId, error);
    }
  }

  /** A statement as `pg` sends it: named (prepared once per connection) unless `preparedStatements` is off. */
  statement(text: string, values: unknown[]): { text: string; values: unknown[]; name?: string } {
    return this.preparedStatements ? namedStatement(text, values) : { text, values };
  }

  async transaction<T>(
    operation: string,
    sessionId: string | undefined,
    body: (client: PoolClient) => Promise<T>,
  ): Promise<T> {
    if (operation !== "migrate") await this.ensureReady();
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw postgresStoreError(this.store, operation, sessionId, error);
    }
    // A connection killed between two statements of the transaction emits 'error' on the
    // checked-out client; without a listener that crashes the process. The next query fails.
    const onError = () => {};
    client.on("error", onError);
    try {
      await client.query("BEGIN");
      const result = await body(client);
      await client.query("COMMIT");
      client.off("error", onError);
      client.release();
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      client.off("error", onError);
      // A broken connection is destroyed, not put back in the pool.
      client.release(isConnectionError(error) ? (error as Error) : undefined);
      throw postgresStoreError(this.store, operation, sessionId, error);
    }
  }
}
