// SqliteMemoryStore's `deleteMessagesFrom` (and its delete-and-append), run inside the store's
// write transaction: the cut, the summaries it invalidates, the count, then the new messages.
import { summariesAfterCut } from "../history-cut";
import type { SummaryRecord } from "../memory-store";
import { parseStoredJson } from "../stored-json";
import { insertMessages } from "./sqlite-message-rows";
import type { SqliteStatements } from "./sqlite-statements";

/**
 * Deletes `sessionId`'s messages from `messageId` on and the summaries covering them, then inserts
 * `bodies` (id, stored JSON) skipping ids kept, and sets the session's count. Returns the session's
 * new count, or undefined, having changed nothing, when the session holds no such message. Call it
 * inside a transaction.
 */
export function cutSqliteMessages(
  statements: SqliteStatements,
  store: string,
  sessionId: string,
  messageId: string,
  bodies: (readonly [string | null, string])[],
): number | undefined {
  const found = statements.messageSeq.get(sessionId, messageId) as { seq: number } | undefined;
  if (!found) return undefined;
  const removed = new Set(
    (statements.idsFrom.all(sessionId, found.seq) as { message_id: string | null }[]).flatMap((row) =>
      row.message_id === null ? [] : [row.message_id],
    ),
  );
  const total = (statements.messageCount.get(sessionId) as { message_count: number } | undefined)?.message_count ?? 0;
  const kept = total - (statements.deleteFrom.run(sessionId, found.seq).changes as number);
  const summaries = (statements.allSummaries.all(sessionId) as { summary_id: string; body: string }[]).map((row) =>
    parseStoredJson<SummaryRecord>(row.body, {
      store,
      operation: "deleteMessagesFrom",
      sessionId,
      record: `summary "${row.summary_id}"`,
    }),
  );
  const valid = new Set(summariesAfterCut(summaries, kept, removed).map((summary) => summary.id));
  for (const summary of summaries) if (!valid.has(summary.id)) statements.deleteSummary.run(sessionId, summary.id);
  const count = kept + insertMessages(statements, sessionId, bodies).length;
  statements.setCount.run(count, sessionId);
  return count;
}
