// The options of PostgresMemoryStore, and their checks at construction.
import type { Pool } from "pg";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { rejectUnknownOptions } from "../reject-unknown-options";

/** Options of `PostgresMemoryStore`. */
export interface PostgresMemoryStoreOptions {
  /** A `pg` Pool you own (`new pg.Pool({ connectionString })`). The store never ends it. */
  pool: Pool;
  /** Schema of the tables; created when missing. Lower-case letters, digits, `_`. @default "public" */
  schema?: string;
  /** Put before each table name. Lower-case letters, digits, `_`. @default "agentcore_" */
  tablePrefix?: string;
  /**
   * Milliseconds a session lock (`lockSession`) lasts without renewal; renewed every third of
   * it while held. A process that dies holding a lock blocks its session this long. At least
   * 1000. @default 30000
   */
  lockLeaseMs?: number;
  /**
   * Send the store's statements as named prepared statements (parsed and planned once per
   * connection; measured: about 40% less PostgreSQL CPU per turn). Turn it off behind a pooler
   * that cannot keep prepared statements across transactions (PgBouncer in transaction mode
   * before 1.21, or without `max_prepared_statements`). @default true
   */
  preparedStatements?: boolean;
}

const identifier = /^[a-z_][a-z0-9_]{0,39}$/;
const knownOptions = [
  "pool",
  "schema",
  "tablePrefix",
  "lockLeaseMs",
  "preparedStatements",
] as const satisfies readonly (keyof PostgresMemoryStoreOptions)[];

/**
 * The options of a new `store` (its name, for the messages), checked in this order and with their
 * defaults; the first bad one is an `InvalidArgumentError`.
 */
export function checkPostgresOptions(
  store: string,
  options: PostgresMemoryStoreOptions,
): Required<PostgresMemoryStoreOptions> {
  if (
    options == null ||
    typeof options !== "object" ||
    options.pool == null ||
    typeof options.pool.query !== "function"
  ) {
    throw new InvalidArgumentError({
      argument: "pool",
      message:
        'new PostgresMemoryStore() needs { pool }: a pg Pool, e.g. new pg.Pool({ connectionString: "postgres://…" }).',
    });
  }
  rejectUnknownOptions(store, options, knownOptions, {
    tableName: "tablePrefix",
    prefix: "tablePrefix",
    client: "pool",
    connectionString: "pool",
  });
  const schema = checkIdentifier(options.schema ?? "public", "schema");
  const tablePrefix = checkIdentifier(options.tablePrefix ?? "agentcore_", "tablePrefix");
  const preparedStatements = options.preparedStatements ?? true;
  const leaseMs = options.lockLeaseMs ?? 30_000;
  if (!Number.isInteger(leaseMs) || leaseMs < 1000) {
    throw new InvalidArgumentError({
      argument: "lockLeaseMs",
      value: leaseMs,
      message: `lockLeaseMs must be an integer of at least 1000, got ${String(leaseMs)}.`,
    });
  }
  return { pool: options.pool, schema, tablePrefix, lockLeaseMs: leaseMs, preparedStatements };
}

function checkIdentifier(value: string, argument: string): string {
  if (typeof value !== "string" || !identifier.test(value)) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: `${argument} must match ${identifier} (lower-case letters, digits and _, at most 40 characters), got ${JSON.stringify(value)}.`,
    });
  }
  return value;
}
