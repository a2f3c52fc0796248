// The tables of SqliteMemoryStore: their names under a prefix, and the versioned schema
// `migrateTables` creates or upgrades when a store opens the database.
import type { Database } from "better-sqlite3";
import { StoreError } from "../../errors/store-error";

/** The schema version this code writes; `migrateTables` brings older schemas up to it. */
export const SCHEMA_VERSION = 5;

/** The quoted names of a store's tables. */
export interface SqliteTables {
  sessions: string;
  messages: string;
  facts: string;
  summaries: string;
  contextReports: string;
  locks: string;
  version: string;
  /** A user's running usage totals (one row per user). */
  userUsage: string;
  /** A user's usage totals per UTC day (one row per user and day). */
  dailyUsage: string;
}

/** The tables of a store with this prefix (a validated identifier). */
export function sqliteTables(prefix: string): SqliteTables {
  const table = (name: string) => `"${prefix}${name}"`;
  return {
    sessions: table("sessions"),
    messages: table("messages"),
    facts: table("facts"),
    summaries: table("summaries"),
    contextReports: table("context_reports"),
    locks: table("locks"),
    version: table("schema_version"),
    userUsage: table("user_usage"),
    dailyUsage: table("daily_usage"),
  };
}

/**
 * Creates or upgrades the tables in one `BEGIN IMMEDIATE` transaction, so concurrent processes
 * migrate once. The version is kept in `<prefix>schema_version`, not `user_version` (which
 * belongs to whoever owns the database).
 */
export function migrateTables(database: Database, t: SqliteTables, store: string): void {
  database
    .transaction(() => {
      database.exec(`CREATE TABLE IF NOT EXISTS ${t.version} (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`);
      const row = database.prepare(`SELECT version FROM ${t.version} WHERE id = 1`).get() as
        | { version: number }
        | undefined;
      const current = row?.version ?? 0;
      if (current > SCHEMA_VERSION) {
        throw new StoreError({
          store,
          operation: "migrate",
          message: `The SQLite tables are at schema version ${current}, newer than this agentcore (${SCHEMA_VERSION}). Upgrade agentcore.`,
        });
      }
      if (current < 1) {
        database.exec(`
          CREATE TABLE ${t.sessions} (session_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, accessed_at INTEGER NOT NULL, agent_name TEXT, tags TEXT) WITHOUT ROWID;
          CREATE INDEX "${t.sessions.slice(1, -1)}_accessed_at" ON ${t.sessions} (accessed_at);
          CREATE TABLE ${t.messages} (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT, body TEXT NOT NULL, UNIQUE (session_id, message_id));
          CREATE INDEX "${t.messages.slice(1, -1)}_session" ON ${t.messages} (session_id, seq);
          CREATE TABLE ${t.facts} (scope_id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (scope_id, key)) WITHOUT ROWID;
          CREATE TABLE ${t.summaries} (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, summary_id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (session_id, summary_id));
          CREATE TABLE ${t.locks} (session_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
        `);
      }
      if (current < 2) {
        // Version 2: each session row keeps its message count, backfilled here once.
        database.exec(`
          ALTER TABLE ${t.sessions} ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
          UPDATE ${t.sessions} SET message_count = (SELECT count(*) FROM ${t.messages} m WHERE m.session_id = ${t.sessions}.session_id);
        `);
      }
      if (current < 3) {
        // Version 3: the newest summaries of a session are read by an index, not a sort of all of them.
        database.exec(
          `CREATE INDEX IF NOT EXISTS "${t.summaries.slice(1, -1)}_session" ON ${t.summaries} (session_id, seq)`,
        );
      }
      if (current < 4) {
        // Version 4: sessions have an owner, and a user's sessions are listed newest first by an index.
        const columns = database.pragma(`table_info(${t.sessions})`) as { name: string }[];
        if (!columns.some((column) => column.name === "user_id"))
          database.exec(`ALTER TABLE ${t.sessions} ADD COLUMN user_id TEXT`);
        database.exec(
          `CREATE INDEX IF NOT EXISTS "${t.sessions.slice(1, -1)}_user" ON ${t.sessions} (user_id, accessed_at, session_id) WHERE user_id IS NOT NULL`,
        );
      }
      if (current < 5) upgradeToThreads(database, t);
      // Context reports (additive, no version): created by whichever version first needs them.
      database.exec(`
        CREATE TABLE IF NOT EXISTS ${t.contextReports} (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, report_id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (session_id, report_id));
        CREATE INDEX IF NOT EXISTS "${t.contextReports.slice(1, -1)}_session" ON ${t.contextReports} (session_id, seq);
      `);
      if (current < SCHEMA_VERSION)
        database.prepare(`INSERT OR REPLACE INTO ${t.version} (id, version) VALUES (1, ?)`).run(SCHEMA_VERSION);
    })
    .immediate();
}

/** The usage columns, as `USAGE_FIELDS` orders them (token counts integers, cost a float). */
export const USAGE_COLUMNS = [
  "input_tokens",
  "output_tokens",
  "cached_input_tokens",
  "reasoning_tokens",
  "total_tokens",
  "model_calls",
  "cost",
] as const;

const usageColumnsSql = USAGE_COLUMNS.map(
  (column) => `${column} ${column === "cost" ? "REAL" : "INTEGER"} NOT NULL DEFAULT 0`,
).join(", ");

/**
 * Version 5 (threads): a session's title, metadata, preview and usage totals; each message's
 * position in its session (0 on), backfilled here once, so a range is read by an index; a user's
 * running and daily usage totals.
 */
function upgradeToThreads(database: Database, t: SqliteTables): void {
  const has = (table: string, name: string) =>
    (database.pragma(`table_info(${table})`) as { name: string }[]).some((column) => column.name === name);
  for (const column of ["title TEXT", "metadata TEXT", "preview TEXT", ...usageColumnsSql.split(", ")])
    if (!has(t.sessions, column.split(" ")[0]!)) database.exec(`ALTER TABLE ${t.sessions} ADD COLUMN ${column}`);
  if (!has(t.messages, "position")) database.exec(`ALTER TABLE ${t.messages} ADD COLUMN position INTEGER`);
  database.exec(`
    UPDATE ${t.messages} SET position = numbered.position
      FROM (SELECT seq, row_number() OVER (PARTITION BY session_id ORDER BY seq) - 1 AS position FROM ${t.messages}) AS numbered
      WHERE ${t.messages}.seq = numbered.seq;
    CREATE INDEX IF NOT EXISTS "${t.messages.slice(1, -1)}_position" ON ${t.messages} (session_id, position);
    CREATE TABLE IF NOT EXISTS ${t.userUsage} (user_id TEXT PRIMARY KEY, ${usageColumnsSql}) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${t.dailyUsage} (user_id TEXT NOT NULL, day TEXT NOT NULL, ${usageColumnsSql}, PRIMARY KEY (user_id, day)) WITHOUT ROWID;
  `);
}
