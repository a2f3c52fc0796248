// The prepared statements of SqliteMemoryStore, made once per store: better-sqlite3 compiles
// each when prepared and then only binds and runs it.
import type { Database, Statement } from "better-sqlite3";
import { type SqliteTables, USAGE_COLUMNS } from "./sqlite-schema";

/** The statements a store runs, by name. */
export type SqliteStatements = Record<keyof ReturnType<typeof statementSql>, Statement>;

/** Prepares every statement of a store on its tables (after `migrateTables`: they must exist). */
export function prepareStatements(db: Database, t: SqliteTables): SqliteStatements {
  return Object.fromEntries(
    Object.entries(statementSql(t)).map(([name, sql]) => [name, db.prepare(sql)]),
  ) as SqliteStatements;
}

/** The SQL of each statement on these tables. */
function statementSql(t: SqliteTables) {
  const usage = USAGE_COLUMNS.join(", ");
  const sessionSelect = `SELECT s.session_id, s.created_at, s.accessed_at, s.agent_name, s.tags, s.message_count, s.user_id, s.title, s.metadata, s.preview, ${USAGE_COLUMNS.map((column) => `s.${column}`).join(", ")} FROM ${t.sessions} s`;
  const placeholders = USAGE_COLUMNS.map(() => "?").join(", ");
  const added = USAGE_COLUMNS.map((column) => `${column} = ${column} + excluded.${column}`).join(", ");
  const sums = USAGE_COLUMNS.map((column) => `coalesce(sum(${column}), 0) AS ${column}`).join(", ");
  return {
    messages: `SELECT body FROM ${t.messages} WHERE session_id = ? ORDER BY seq`,
    recent: `SELECT body FROM ${t.messages} WHERE session_id = ? ORDER BY seq DESC LIMIT ?`,
    insertOrIgnore: `INSERT OR IGNORE INTO ${t.messages} (session_id, message_id, body, position) VALUES (?, ?, ?, ?)`,
    // A session's messages are always positions 0 to count - 1: the next one is past the last.
    nextPosition: `SELECT coalesce(max(position), -1) + 1 AS next FROM ${t.messages} WHERE session_id = ?`,
    range: `SELECT body FROM ${t.messages} WHERE session_id = ? AND position >= ? AND position < ? ORDER BY position`,
    recentBefore: `SELECT body FROM ${t.messages} WHERE session_id = ? AND position < ? ORDER BY position DESC LIMIT ?`,
    deleteMessages: `DELETE FROM ${t.messages} WHERE session_id = ?`,
    messageSeq: `SELECT seq FROM ${t.messages} WHERE session_id = ? AND message_id = ?`,
    idsFrom: `SELECT message_id FROM ${t.messages} WHERE session_id = ? AND seq >= ?`,
    deleteFrom: `DELETE FROM ${t.messages} WHERE session_id = ? AND seq >= ?`,
    allSummaries: `SELECT summary_id, body FROM ${t.summaries} WHERE session_id = ?`,
    deleteSummary: `DELETE FROM ${t.summaries} WHERE session_id = ? AND summary_id = ?`,
    deleteSummaries: `DELETE FROM ${t.summaries} WHERE session_id = ?`,
    deleteSession: `DELETE FROM ${t.sessions} WHERE session_id = ?`,
    messageCount: `SELECT message_count FROM ${t.sessions} WHERE session_id = ?`,
    touch: `INSERT INTO ${t.sessions} (session_id, created_at, accessed_at, message_count, preview) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET accessed_at = max(accessed_at, excluded.accessed_at), message_count = message_count + excluded.message_count,
         preview = coalesce(excluded.preview, preview)`,
    setPreview: `UPDATE ${t.sessions} SET preview = ? WHERE session_id = ?`,
    setCount: `UPDATE ${t.sessions} SET message_count = ? WHERE session_id = ?`,
    updateMeta: `UPDATE ${t.sessions} SET agent_name = coalesce(?, agent_name), tags = coalesce(?, tags), title = coalesce(?, title),
         metadata = coalesce(?, metadata) WHERE session_id = ?`,
    titleIfNone: `UPDATE ${t.sessions} SET title = ? WHERE session_id = ? AND title IS NULL`,
    addSessionUsage: `UPDATE ${t.sessions} SET ${USAGE_COLUMNS.map((column) => `${column} = ${column} + ?`).join(", ")} WHERE session_id = ? RETURNING user_id`,
    addUserUsage: `INSERT INTO ${t.userUsage} (user_id, ${usage}) VALUES (?, ${placeholders}) ON CONFLICT (user_id) DO UPDATE SET ${added}`,
    addDailyUsage: `INSERT INTO ${t.dailyUsage} (user_id, day, ${usage}) VALUES (?, ?, ${placeholders}) ON CONFLICT (user_id, day) DO UPDATE SET ${added}`,
    sessionUsage: `SELECT ${usage} FROM ${t.sessions} WHERE session_id = ?`,
    userUsage: `SELECT ${usage} FROM ${t.userUsage} WHERE user_id = ?`,
    userUsageSince: `SELECT ${sums} FROM ${t.dailyUsage} WHERE user_id = ? AND day >= ?`,
    deleteUserUsage: `DELETE FROM ${t.userUsage} WHERE user_id = ?`,
    deleteDailyUsage: `DELETE FROM ${t.dailyUsage} WHERE user_id = ?`,
    userSessionIds: `SELECT session_id, message_count FROM ${t.sessions} WHERE user_id = ? ORDER BY accessed_at DESC, session_id DESC`,
    deleteScope: `DELETE FROM ${t.facts} WHERE scope_id = ?`,
    deleteLock: `DELETE FROM ${t.locks} WHERE session_id = ?`,
    facts: `SELECT key, body FROM ${t.facts} WHERE scope_id = ? ORDER BY key`,
    setFact: `INSERT INTO ${t.facts} (scope_id, key, body) VALUES (?, ?, ?) ON CONFLICT (scope_id, key) DO UPDATE SET body = excluded.body`,
    deleteFact: `DELETE FROM ${t.facts} WHERE scope_id = ? AND key = ?`,
    factScopes: `SELECT DISTINCT scope_id FROM ${t.facts} ORDER BY scope_id`,
    session: `${sessionSelect} WHERE s.session_id = ?`,
    allSessions: `${sessionSelect} ORDER BY s.accessed_at`,
    claimSession: `INSERT INTO ${t.sessions} (session_id, created_at, accessed_at, message_count, user_id) VALUES (?, ?, ?, 0, ?)
         ON CONFLICT (session_id) DO NOTHING`,
    sessionOwner: `SELECT user_id FROM ${t.sessions} WHERE session_id = ?`,
    userSessions: `${sessionSelect} WHERE s.user_id = ? ORDER BY s.accessed_at DESC, s.session_id DESC LIMIT ?`,
    userSessionsAfter: `${sessionSelect} WHERE s.user_id = ? AND (s.accessed_at, s.session_id) < (?, ?)
         ORDER BY s.accessed_at DESC, s.session_id DESC LIMIT ?`,
    stale: `SELECT session_id FROM ${t.sessions} WHERE accessed_at < ?`,
    summaries: `SELECT body FROM (SELECT seq, body FROM ${t.summaries} WHERE session_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    saveSummary: `INSERT OR IGNORE INTO ${t.summaries} (session_id, summary_id, body) VALUES (?, ?, ?)`,
    contextReports: `SELECT body FROM (SELECT seq, body FROM ${t.contextReports} WHERE session_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    saveContextReport: `INSERT OR IGNORE INTO ${t.contextReports} (session_id, report_id, body)
         SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM ${t.sessions} WHERE session_id = ?)`,
    trimContextReports: `DELETE FROM ${t.contextReports} WHERE session_id = ? AND seq <= (SELECT seq FROM ${t.contextReports} WHERE session_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
    deleteContextReports: `DELETE FROM ${t.contextReports} WHERE session_id = ?`,
    expireLock: `DELETE FROM ${t.locks} WHERE session_id = ? AND expires_at < ?`,
    takeLock: `INSERT OR IGNORE INTO ${t.locks} (session_id, token, expires_at) VALUES (?, ?, ?)`,
    renewLock: `UPDATE ${t.locks} SET expires_at = ? WHERE session_id = ? AND token = ?`,
    releaseLock: `DELETE FROM ${t.locks} WHERE session_id = ? AND token = ?`,
    lockHeld: `SELECT 1 FROM ${t.locks} WHERE session_id = ? AND token = ?`,
  };
}
