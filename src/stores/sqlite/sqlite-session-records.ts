// The records SqliteMemoryStore keeps beside a session's messages and reads the same way: its
// summaries and its context reports, the newest `last` of them, oldest first.
import { validateSessionId } from "../../messages/session-id";
import {
  checkContextReport,
  contextReportCount,
  MAX_CONTEXT_REPORTS,
  type ContextReport,
  type ContextReportReadOptions,
} from "../context-report";
import type { SummaryReadOptions, SummaryRecord } from "../memory-store";
import { parseStoredJson } from "../stored-json";
import { summaryCount } from "../summary-count";
import type { SqliteStatements } from "./sqlite-statements";

type Run = <T>(operation: string, sessionId: string | undefined, body: () => T) => T;

/** The newest summaries or reports of a session (SQLite reads LIMIT -1 as no limit). */
function readNewest<T>(
  statements: SqliteStatements,
  wrap: Run,
  kind: "summaries" | "contextReports",
  sessionId: string,
  count: number,
  store: string,
): T[] {
  const operation = kind === "summaries" ? "getSummaries" : "getContextReports";
  const rows = wrap(operation, sessionId, () => statements[kind].all(sessionId, count === Infinity ? -1 : count)) as {
    body: string;
  }[];
  const record = kind === "summaries" ? "summary" : "report";
  return rows.map((row, index) =>
    parseStoredJson<T>(row.body, { store, operation, sessionId, record: `${record} ${index}` }),
  );
}

export function readSummaries(
  statements: SqliteStatements,
  wrap: Run,
  store: string,
  sessionId: string,
  options?: SummaryReadOptions,
): SummaryRecord[] {
  validateSessionId(sessionId);
  return readNewest(statements, wrap, "summaries", sessionId, summaryCount(options, store), store);
}

export function readContextReports(
  statements: SqliteStatements,
  wrap: Run,
  store: string,
  sessionId: string,
  options?: ContextReportReadOptions,
): ContextReport[] {
  validateSessionId(sessionId);
  return readNewest(statements, wrap, "contextReports", sessionId, contextReportCount(options, store), store);
}

/** Keeps a report on a session that exists (idempotent by id; `write` fenced as summaries are), dropping its reports past the bound. */
export function keepContextReport(
  statements: SqliteStatements,
  write: <T>(operation: string, sessionId: string, body: () => T) => T,
  store: string,
  sessionId: string,
  report: ContextReport,
): void {
  checkContextReport(sessionId, report, store);
  write("saveContextReport", sessionId, () => {
    if (statements.saveContextReport.run(sessionId, report.id, JSON.stringify(report), sessionId).changes)
      statements.trimContextReports.run(sessionId, sessionId, MAX_CONTEXT_REPORTS);
  });
}
