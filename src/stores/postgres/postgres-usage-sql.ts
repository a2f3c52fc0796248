// The usage ledger of PostgresMemoryStore in SQL: the session row's totals columns, the owner's
// running and daily totals, and the insert trigger that adds an append's usage and preview only
// when the append stored a message.
import type { AgentMessage } from "../../messages/agent-message";
import { previewOf } from "../session-preview";
import { checkUsage, emptyTotals, USAGE_FIELDS, utcDay, type AppendOptions, type UsageTotals } from "../usage-totals";

/** The tables the ledger writes (a subset of `PostgresTables`, named here so the schema can import this file). */
export interface LedgerTables {
  sessions: string;
  userUsage: string;
  userUsageDays: string;
}

/** The ledger's columns, in `USAGE_FIELDS` order (token counts bigint, cost double precision). */
export const USAGE_COLUMNS = [
  "input_tokens",
  "output_tokens",
  "cached_input_tokens",
  "reasoning_tokens",
  "total_tokens",
  "model_calls",
  "cost",
] as const;

/** `name type NOT NULL DEFAULT 0` for each ledger column (table definitions, `ALTER TABLE … ADD COLUMN`). */
export function usageColumnDefinitions(): string[] {
  return USAGE_COLUMNS.map((column) => `${column} ${columnType(column)} NOT NULL DEFAULT 0`);
}

/** The transaction-local setting through which an append statement hands its usage and preview to the insert trigger. */
export const PENDING_SETTING = "agentcore.append";

/** What one append gives the trigger: its session, its preview, its usage (token counts whole). */
export interface PendingLedger {
  session_id: string;
  preview?: string;
  usage?: number[];
}

/**
 * What an append of `messages` records beside them, checked (`checkUsage`) before anything is
 * written; undefined when nothing (no text, no usage).
 */
export function pendingLedger(
  sessionId: string,
  messages: readonly AgentMessage[],
  options: AppendOptions | undefined,
  where: string,
): PendingLedger | undefined {
  if (options?.usage !== undefined) checkUsage(options.usage, where);
  const preview = previewOf(messages);
  if (preview === undefined && options?.usage === undefined) return undefined;
  return {
    session_id: sessionId,
    ...(preview === undefined ? {} : { preview }),
    ...(options?.usage === undefined ? {} : { usage: usageValues(options.usage) }),
  };
}

/** The values of the ledger columns for `usage`, in `USAGE_COLUMNS` order (token counts rounded to whole numbers). */
export function usageValues(usage: UsageTotals): number[] {
  return USAGE_FIELDS.map((field) => (field === "cost" ? usage[field] : Math.round(usage[field])));
}

/**
 * The JSON the append statement puts in `PENDING_SETTING` (null when no append records anything):
 * the ledgers, and the UTC day of the write only when one of them has usage (without it, the
 * trigger only sets previews).
 */
export function pendingJson(ledgers: (PendingLedger | undefined)[]): string | null {
  const appends = ledgers.filter((ledger) => ledger !== undefined);
  if (appends.length === 0) return null;
  const spends = appends.some((ledger) => ledger.usage !== undefined);
  return JSON.stringify(spends ? { day: utcDay(Date.now()), appends } : { appends });
}

/** Usage totals read from a row of ledger columns (bigint arrives as text). */
export function totalsOfRow(row: Record<string, unknown> | undefined): UsageTotals {
  if (row === undefined) return emptyTotals();
  const totals = emptyTotals();
  USAGE_FIELDS.forEach((field, index) => {
    const value = Number(row[USAGE_COLUMNS[index]!] ?? 0);
    totals[field] = Number.isFinite(value) ? value : 0;
  });
  return totals;
}

/**
 * CTEs adding what the rows of CTE `source` (`user_id` and the ledger columns, null ones: nothing)
 * spent to their owners' running totals (`<prefix>user_usage`) and to their totals of the UTC day
 * `day` (an SQL date expression; `<prefix>user_usage_days`). Rows without an owner or without usage
 * add nothing. Owners are locked in `user_id` order, after the session rows every writer locks first.
 */
export function ownerTotalsCtes(tables: LedgerTables, source: string, day: string): string {
  const sums = USAGE_COLUMNS.map((column) => `sum(${column}) AS ${column}`).join(", ");
  const columns = USAGE_COLUMNS.join(", ");
  const add = USAGE_COLUMNS.map((column) => `${column} = u.${column} + EXCLUDED.${column}`).join(", ");
  return `owners AS (
       SELECT user_id, ${sums} FROM ${source} WHERE user_id IS NOT NULL AND model_calls IS NOT NULL GROUP BY user_id),
     user_totals AS (
       INSERT INTO ${tables.userUsage} AS u (user_id, ${columns}) SELECT user_id, ${columns} FROM owners ORDER BY user_id
       ON CONFLICT (user_id) DO UPDATE SET ${add}),
     user_days AS (
       INSERT INTO ${tables.userUsageDays} AS u (user_id, day, ${columns}) SELECT user_id, ${day}, ${columns} FROM owners ORDER BY user_id
       ON CONFLICT (user_id, day) DO UPDATE SET ${add})`;
}

/** `column = s.column + <values[i]>` for each ledger column, `values` the SQL of the amounts added. */
export function addToSession(values: (column: string, index: number) => string): string {
  return USAGE_COLUMNS.map((column, index) => `${column} = s.${column} + ${values(column, index)}`).join(", ");
}

/** The SQL type of a ledger column. */
function columnType(column: string): string {
  return column === "cost" ? "double precision" : "bigint";
}

/**
 * Each ledger column's amount from parameter `$param` (a `double precision[]` in `USAGE_COLUMNS`
 * order, from `usageValues`; null: nothing), as `expression AS column`.
 */
export function usageFromParam(param: number): string {
  return USAGE_COLUMNS.map(
    (column, index) => `($${param}::double precision[])[${index + 1}]::${columnType(column)} AS ${column}`,
  ).join(", ");
}

/** `column = s.column + amount` for each ledger column, the amount taken from parameter `$param` as `usageFromParam` reads it (0 when null). */
export function addParamToSession(param: number): string {
  return addToSession(
    (column, index) => `COALESCE(($${param}::double precision[])[${index + 1}]::${columnType(column)}, 0)`,
  );
}

/**
 * The body of the messages insert trigger of schema version 6: as version 2's, it adds the rows a
 * statement inserted to their sessions' `message_count`; when the statement set `PENDING_SETTING`
 * (an append of this version), it also sets the preview and adds the usage of each session that
 * got at least one new row, and adds that usage to the owner's totals, in the same update of the
 * session row. A session whose messages were all stored already (a retried append) gets nothing.
 */
export function insertTriggerBody(tables: LedgerTables): string {
  const t = tables;
  const fromUsage = USAGE_COLUMNS.map(
    (column, index) => `(p.usage->>${index})::${columnType(column)} AS ${column}`,
  ).join(", ");
  return `
    DECLARE
      pending jsonb := nullif(current_setting('${PENDING_SETTING}', true), '')::jsonb;
      owners_added bigint;
    BEGIN
      IF pending IS NULL THEN
        UPDATE ${t.sessions} s SET message_count = s.message_count + changed.n
        FROM (SELECT session_id, count(*) AS n FROM changed_rows GROUP BY session_id) changed
        WHERE s.session_id = changed.session_id;
        RETURN NULL;
      END IF;
      -- Consumed once: a later insert of the transaction adds nothing of it.
      PERFORM set_config('${PENDING_SETTING}', '', true);
      IF NOT pending ? 'day' THEN
        -- Previews only (no usage in the statement): the cheaper update.
        UPDATE ${t.sessions} s SET message_count = s.message_count + changed.n, preview = COALESCE(l.preview, s.preview)
        FROM (SELECT session_id, count(*) AS n FROM changed_rows GROUP BY session_id) changed
          LEFT JOIN jsonb_to_recordset(pending->'appends') AS l(session_id text, preview text) ON l.session_id = changed.session_id
        WHERE s.session_id = changed.session_id;
        RETURN NULL;
      END IF;
      WITH ledger AS (
        SELECT p.session_id, p.preview, ${fromUsage}
        FROM jsonb_to_recordset(pending->'appends') AS p(session_id text, preview text, usage jsonb)),
      applied AS (
        UPDATE ${t.sessions} s SET message_count = s.message_count + changed.n,
          preview = COALESCE(l.preview, s.preview),
          ${addToSession((column) => `COALESCE(l.${column}, 0)`)}
        FROM (SELECT session_id, count(*) AS n FROM changed_rows GROUP BY session_id) changed
          LEFT JOIN ledger l ON l.session_id = changed.session_id
        WHERE s.session_id = changed.session_id
        RETURNING s.user_id, ${USAGE_COLUMNS.map((column) => `l.${column}`).join(", ")}),
      ${ownerTotalsCtes(t, "applied", "(pending->>'day')::date")}
      SELECT count(*) INTO owners_added FROM owners;
      RETURN NULL;
    END`;
}
