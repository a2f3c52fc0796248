// How SqliteMemoryStore opens its database: its options checked, the file opened (or the user's
// Database taken), the pragmas set and the tables migrated.
import type { Database } from "better-sqlite3";
import { errorText } from "../../errors/error-text";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import { rejectUnknownOptions } from "../reject-unknown-options";
import { loadBetterSqlite3 } from "./load-better-sqlite3";
import { migrateTables, sqliteTables, type SqliteTables } from "./sqlite-schema";

/** Options of {@link SqliteMemoryStore}. */
export interface SqliteMemoryStoreOptions {
  /** A file name (opened, and closed by `close()`), or a better-sqlite3 `Database` you own. */
  database: string | Database;
  /** How long a write waits for another process's transaction, in ms. @default 5000 */
  busyTimeoutMs?: number;
  /** Put before each table name. Lower-case letters, digits, `_`. @default "agentcore_" */
  tablePrefix?: string;
  /** How long a session lock lives without being renewed (a crashed holder frees it after this). @default 30_000 */
  lockLeaseMs?: number;
  /**
   * SQLite's `synchronous` setting. `"full"` fsyncs every commit: a turn that resolved survives
   * power loss. `"normal"` (WAL) survives a process crash but may lose the last turns on power
   * loss, for about ten times less latency per write. @default "full"
   */
  synchronous?: "full" | "normal";
}

const store = "SqliteMemoryStore";
const knownOptions = [
  "database",
  "busyTimeoutMs",
  "synchronous",
  "tablePrefix",
  "lockLeaseMs",
] as const satisfies readonly (keyof SqliteMemoryStoreOptions)[];
const identifier = /^[a-z_][a-z0-9_]{0,39}$/;

/** An open, migrated database and what the store keeps of its options. */
export interface OpenedSqlite {
  database: Database;
  /** Whether the store opened it (and so closes it). */
  ownsDatabase: boolean;
  tables: SqliteTables;
  lockLeaseMs: number;
}

/**
 * Checks the options (a typed error naming a bad one), opens the database, sets WAL, the busy
 * timeout and `synchronous`, and creates or upgrades the tables. `wrap` turns a failure into the
 * store's `StoreError`.
 */
export function openSqlite(
  options: SqliteMemoryStoreOptions | string,
  wrap: <T>(operation: string, sessionId: undefined, body: () => T) => T,
): OpenedSqlite {
  const resolved: SqliteMemoryStoreOptions = typeof options === "string" ? { database: options } : options;
  if (resolved == null || typeof resolved !== "object" || resolved.database == null) {
    throw new InvalidArgumentError({
      argument: "database",
      message: 'new SqliteMemoryStore() needs a file name or { database }: e.g. new SqliteMemoryStore("./agent.db").',
    });
  }
  rejectUnknownOptions(store, resolved, knownOptions, {
    tableName: "tablePrefix",
    prefix: "tablePrefix",
    path: "database",
    filename: "database",
    timeout: "busyTimeoutMs",
  });
  const prefix = resolved.tablePrefix ?? "agentcore_";
  if (!identifier.test(prefix)) {
    throw new InvalidArgumentError({
      argument: "tablePrefix",
      value: prefix,
      message: `tablePrefix must match ${identifier}, got ${JSON.stringify(prefix)}.`,
    });
  }
  // Outside the try: a missing better-sqlite3 is its own error (the install command), not a bad path.
  const BetterSqlite3 = typeof resolved.database === "string" ? loadBetterSqlite3() : undefined;
  let database: Database;
  try {
    database = BetterSqlite3 ? new BetterSqlite3(resolved.database as string) : (resolved.database as Database);
  } catch (error) {
    throw new StoreError({
      store,
      operation: "open",
      message: `Could not open the SQLite database ${String(resolved.database)}: ${errorText(error)}. Check the path and its directory's permissions.`,
      cause: error,
    });
  }
  const tables = sqliteTables(prefix);
  wrap("open", undefined, () => {
    database.pragma(`busy_timeout = ${Math.max(0, Math.floor(resolved.busyTimeoutMs ?? 5000))}`);
    if (!database.memory) database.pragma("journal_mode = WAL");
    database.pragma(`synchronous = ${resolved.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    migrateTables(database, tables, store);
  });
  return {
    database,
    ownsDatabase: typeof resolved.database === "string",
    tables,
    lockLeaseMs: resolved.lockLeaseMs ?? 30_000,
  };
}
