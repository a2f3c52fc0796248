// The thread records of SqliteMemoryStore (docs/threads.md), written inside its transactions: the
// usage ledger (a session's totals, its owner's running and daily totals), the preview a cut
// leaves, and a user's data deleted session by session.
import type { AgentMessage } from "../../messages/agent-message";
import { previewOf } from "../session-preview";
import {
  emptyTotals,
  USAGE_FIELDS,
  utcDay,
  type UsageQuery,
  type UsageTotals,
  type UserDataDeletion,
} from "../usage-totals";
import { parseMessageRows } from "./sqlite-message-rows";
import { usageOf } from "./sqlite-session-rows";
import type { SqliteStatements } from "./sqlite-statements";

type UsageRow = Parameters<typeof usageOf>[0];
type Write = <T>(operation: string, sessionId: string | undefined, body: () => T) => T;

/** Messages read per step when a cut walks back for the last text. */
const PREVIEW_PAGE = 20;

/** Adds `usage` to a session's totals and, when it has an owner, to the owner's running and today's totals. Call it inside the write's transaction. */
export function addSqliteUsage(statements: SqliteStatements, sessionId: string, usage: UsageTotals): void {
  const values = USAGE_FIELDS.map((field) => usage[field]);
  const row = statements.addSessionUsage.get(...values, sessionId) as { user_id: string | null } | undefined;
  if (row?.user_id == null) return;
  statements.addUserUsage.run(row.user_id, ...values);
  statements.addDailyUsage.run(row.user_id, utcDay(Date.now()), ...values);
}

/** A session's totals, a user's running totals, or the sum of a user's days from `since`'s (zeros when unknown). */
export function readSqliteUsage(statements: SqliteStatements, query: UsageQuery): UsageTotals {
  const row = (
    "sessionId" in query
      ? statements.sessionUsage.get(query.sessionId)
      : query.since === undefined
        ? statements.userUsage.get(query.userId)
        : statements.userUsageSince.get(query.userId, utcDay(query.since))
  ) as UsageRow | undefined;
  return row ? usageOf(row) : emptyTotals();
}

/**
 * The preview of a session after a cut that left `count` messages: the replacement's when it has
 * text, else that of the last remaining message with text, read back `PREVIEW_PAGE` at a time
 * (null when none has any). Call it inside the cut's transaction.
 */
export function previewAfterCut(
  statements: SqliteStatements,
  sessionId: string,
  count: number,
  replacement: AgentMessage[],
): string | null {
  const replaced = previewOf(replacement);
  if (replaced !== undefined) return replaced;
  for (let end = count; end > 0; end -= PREVIEW_PAGE) {
    const rows = statements.recentBefore.all(sessionId, end, PREVIEW_PAGE) as { body: string }[];
    const messages = parseMessageRows(rows.reverse(), "deleteMessagesFrom", sessionId, end - rows.length);
    const preview = previewOf(messages);
    if (preview !== undefined) return preview;
  }
  return null;
}

/**
 * Deletes every session `userId` owns, each in its own transaction (messages, summaries, context
 * reports, its lock, the facts of `session:<id>`, the row, which is the user's index entry), then
 * the user's facts and usage totals. A crash half-way leaves whole sessions, found by a retry.
 * Deleting a session's lock row fences a run still holding it: its later writes are refused.
 */
export function deleteSqliteUserData(statements: SqliteStatements, write: Write, userId: string): UserDataDeletion {
  const deleted: UserDataDeletion = { sessions: 0, messages: 0, facts: 0 };
  const owned = write("deleteUserData", undefined, () => statements.userSessionIds.all(userId)) as {
    session_id: string;
  }[];
  for (const { session_id: sessionId } of owned)
    write("deleteUserData", sessionId, () => {
      const owner = statements.sessionOwner.get(sessionId) as { user_id: string | null } | undefined;
      if (owner?.user_id !== userId) return;
      deleted.messages += statements.deleteMessages.run(sessionId).changes;
      deleted.facts += statements.deleteScope.run(`session:${sessionId}`).changes;
      statements.deleteSummaries.run(sessionId);
      statements.deleteContextReports.run(sessionId);
      statements.deleteLock.run(sessionId);
      statements.deleteSession.run(sessionId);
      deleted.sessions++;
    });
  write("deleteUserData", undefined, () => {
    deleted.facts += statements.deleteScope.run(`user:${userId}`).changes;
    statements.deleteUserUsage.run(userId);
    statements.deleteDailyUsage.run(userId);
  });
  return deleted;
}
