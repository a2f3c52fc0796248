// The stream log of PostgresMemoryStore (`StreamLog`, stores/stream-log.ts; docs/resumable-streams.md):
// two tables of its own beside the store's, `<prefix>streams` (one row a stream: its session, state,
// bytes, chunk count, expiry) and `<prefix>stream_chunks` (one row a chunk, deleted with its stream),
// created on first use under an advisory lock (not part of the store's schema version: a log is
// short-lived, nothing migrates). Expired streams are deleted by the next `begin` (cleanup on
// write). A follower polls (one statement reads the state and the new chunks together).
import type { Pool } from "pg";
import { validateSessionId } from "../../messages/session-id";
import { chunkBytes, type StreamLog, type StreamState, subscribedFollower } from "../stream-log";
import { PostgresStreamListener } from "./postgres-stream-listener";

/** Ms between a follower's reads when it cannot LISTEN. */
const POLL_MS = 50;
/** The channel every write of a stream notifies, its id the payload (stream ids are UUIDs: no two stores share one). */
const CHANNEL = "agentcore_streams";

/** The stream log of a store on `pool`, with its tables in `schema` named with `tablePrefix` (both validated). */
export function postgresStreamLog(pool: Pool, schema: string, tablePrefix: string): StreamLog {
  const streams = `"${schema}"."${tablePrefix}streams"`;
  const chunksTable = `"${schema}"."${tablePrefix}stream_chunks"`;
  let ready: Promise<void> | undefined;
  const ensureTables = () =>
    (ready ??= (async () => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
          `agentcore:streams:${schema}.${tablePrefix}`,
        ]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${streams} (
          stream_id text PRIMARY KEY,
          session_id text NOT NULL,
          state text NOT NULL,
          bytes bigint NOT NULL DEFAULT 0,
          chunk_count int NOT NULL DEFAULT 0,
          started_at bigint NOT NULL,
          expires_at bigint NOT NULL)`);
        await client.query(
          `CREATE INDEX IF NOT EXISTS "${tablePrefix}streams_session" ON ${streams} (session_id, started_at)`,
        );
        await client.query(`CREATE INDEX IF NOT EXISTS "${tablePrefix}streams_expiry" ON ${streams} (expires_at)`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${chunksTable} (
          stream_id text NOT NULL REFERENCES ${streams} (stream_id) ON DELETE CASCADE,
          seq int NOT NULL,
          chunk text NOT NULL,
          PRIMARY KEY (stream_id, seq))`);
        await client.query("COMMIT");
      } catch (error) {
        ready = undefined;
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    })());
  const listener = new PostgresStreamListener(pool, CHANNEL);
  const query = async <Row extends object>(sql: string, values: unknown[]): Promise<Row[]> => {
    await ensureTables();
    return (await pool.query<Row>(sql, values)).rows;
  };
  return {
    scope: "store",
    async begin(sessionId, streamId, limits) {
      validateSessionId(sessionId);
      const now = Date.now();
      await query(`DELETE FROM ${streams} WHERE expires_at < $1`, [now]);
      await query(
        `INSERT INTO ${streams} (stream_id, session_id, state, started_at, expires_at) VALUES ($1, $2, 'running', $3, $4)`,
        [streamId, sessionId, now, now + limits.ttlMs],
      );
    },
    async append(sessionId, streamId, chunks, limits) {
      let bytes = 0;
      for (const chunk of chunks) bytes += chunkBytes(chunk);
      // The stream's counters and its chunks in one statement: numbered after the chunks already stored.
      const rows = await query<{ recorded: number }>(
        `WITH counted AS (
           UPDATE ${streams} SET bytes = bytes + $4, chunk_count = chunk_count + $5, expires_at = $6
           WHERE stream_id = $1 AND session_id = $2 AND state = 'running' AND bytes + $4 <= $7
           RETURNING chunk_count - $5 AS base),
         inserted AS (
           INSERT INTO ${chunksTable} (stream_id, seq, chunk)
           SELECT $1, base + ordinality - 1, chunk FROM counted, unnest($3::text[]) WITH ORDINALITY AS c(chunk, ordinality)
           RETURNING 1),
         notified AS (SELECT pg_notify('${CHANNEL}', $1) FROM counted)
         SELECT (SELECT count(*) FROM counted)::int AS recorded, (SELECT count(*) FROM notified) AS notified`,
        [streamId, sessionId, chunks, bytes, chunks.length, Date.now() + limits.ttlMs, limits.maxBytes],
      );
      if (rows[0]?.recorded === 1) return true;
      // Past maxBytes (or no longer running): overflowed, its chunks dropped.
      await query(
        `UPDATE ${streams} SET state = 'overflow', expires_at = $3 WHERE stream_id = $1 AND session_id = $2 AND state = 'running'`,
        [streamId, sessionId, Date.now() + limits.ttlMs],
      );
      await query(`DELETE FROM ${chunksTable} WHERE stream_id = $1`, [streamId]);
      await query(`SELECT pg_notify('${CHANNEL}', $1)`, [streamId]);
      return false;
    },
    async end(sessionId, streamId, limits) {
      await query(
        `WITH ended AS (
           UPDATE ${streams} SET state = CASE WHEN state = 'running' THEN 'done' ELSE state END, expires_at = $3
           WHERE stream_id = $1 AND session_id = $2 RETURNING stream_id)
         SELECT pg_notify('${CHANNEL}', stream_id) FROM ended`,
        [streamId, sessionId, Date.now() + limits.ttlMs],
      );
    },
    async latest(sessionId) {
      validateSessionId(sessionId);
      const rows = await query<{ stream_id: string }>(
        `SELECT stream_id FROM ${streams} WHERE session_id = $1 AND expires_at > $2 ORDER BY started_at DESC, stream_id DESC LIMIT 1`,
        [sessionId, Date.now()],
      );
      return rows[0]?.stream_id;
    },
    async read(sessionId, streamId, from) {
      const rows = await query<{ state: StreamState; chunks: string[] }>(
        `SELECT state, ARRAY(SELECT chunk FROM ${chunksTable} WHERE stream_id = $1 AND seq >= $3 ORDER BY seq) AS chunks
         FROM ${streams} WHERE stream_id = $1 AND session_id = $2 AND expires_at > $4`,
        [streamId, sessionId, from, Date.now()],
      );
      const row = rows[0];
      return row ? { chunks: row.chunks, state: row.state } : { chunks: [], state: undefined };
    },
    follow: (_sessionId, streamId, signal) =>
      subscribedFollower((onMessage) => listener.listen(streamId, onMessage), POLL_MS, signal),
  };
}
