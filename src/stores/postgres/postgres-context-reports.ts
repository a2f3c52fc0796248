import { checkContextReport, contextReportCount, MAX_CONTEXT_REPORTS, type ContextReport } from "../context-report";
import type { ContextReportReadOptions } from "../context-report";
import { validateSessionId } from "../../messages/session-id";
import { parseStoredJson } from "../stored-json";
import type { PostgresTables } from "./postgres-schema";

type Query = <Row extends object>(
  operation: string,
  sessionId: string | undefined,
  sql: string,
  values: unknown[],
) => Promise<Row[]>;

/**
 * The context reports of `PostgresMemoryStore` (table `<prefix>context_reports`): one statement
 * per save that inserts (only into a session that exists, idempotent by report id) and drops the
 * session's reports past `MAX_CONTEXT_REPORTS`.
 */
export class PostgresContextReports {
  constructor(
    private readonly tables: PostgresTables,
    private readonly query: Query,
    private readonly store: string,
  ) {}

  async save(sessionId: string, report: ContextReport): Promise<void> {
    checkContextReport(sessionId, report, this.store);
    const { sessions, contextReports: reports } = this.tables;
    // The DELETE sees the rows from before the INSERT: keeping max - 1 of them leaves max with the new one.
    await this.query(
      "saveContextReport",
      sessionId,
      `WITH inserted AS (
         INSERT INTO ${reports} (session_id, report_id, body)
         SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM ${sessions} WHERE session_id = $1)
         ON CONFLICT (session_id, report_id) DO NOTHING RETURNING seq)
       DELETE FROM ${reports} WHERE session_id = $1 AND EXISTS (SELECT 1 FROM inserted)
         AND seq <= (SELECT seq FROM ${reports} WHERE session_id = $1 ORDER BY seq DESC OFFSET $4 LIMIT 1)`,
      [sessionId, report.id, JSON.stringify(report), MAX_CONTEXT_REPORTS - 1],
    );
  }

  async get(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    validateSessionId(sessionId);
    const count = contextReportCount(options, this.store);
    const rows = await this.query<{ body: string }>(
      "getContextReports",
      sessionId,
      `SELECT body FROM (SELECT seq, body FROM ${this.tables.contextReports} WHERE session_id = $1 ORDER BY seq DESC LIMIT $2) newest ORDER BY seq`,
      [sessionId, count === Infinity ? null : count],
    );
    const read = { store: this.store, operation: "getContextReports", sessionId };
    return rows.map((row, index) => parseStoredJson<ContextReport>(row.body, { ...read, record: `report ${index}` }));
  }
}
