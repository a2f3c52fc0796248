import type { AgentMessage } from "../../messages/agent-message";
import type { PostgresTables } from "./postgres-schema";
import type { PostgresTurnSql } from "./postgres-turn-sql";

/** One `appendMessages` waiting for its statement. */
export interface PendingAppend {
  sessionId: string;
  /** The messages, repeated ids already left out; at least one. */
  messages: AgentMessage[];
  /** The lease token the write must hold (null: not fenced). */
  token: string | null;
  /** Also delete that lease, in the same transaction (a run's last append). */
  release: boolean;
}

type Query = (sql: string, values: unknown[]) => Promise<{ session_id: string; ok: boolean }[]>;

/** The most appends one statement carries (a bound on its size and on the work one failure redoes). */
const MAX_BATCH = 64;

/**
 * Group commit of a store's appends: an append sent while another statement of this batcher is
 * running waits for it, and all that waited go together in one statement, one transaction, one
 * WAL flush; each caller is answered only once that transaction committed. An append with nothing
 * running goes at once, alone, so a lone append waits for nothing; the wait is bounded by one
 * statement (at most `maxInFlight` run at a time). Each append keeps its own guarantees: its
 * messages are written whole or not at all, idempotently by id, fenced by its own lease (a refused
 * one answers `false`, the others are written); one statement holds at most one append per
 * session, so appends to a session keep their order. A batch that fails for another reason than
 * its connection is retried one append at a time (it rolled back whole), so one bad append never
 * fails the others.
 */
export class PostgresAppendBatcher {
  private readonly waiting: { append: PendingAppend; resolve: (ok: boolean) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly tables: PostgresTables,
    private readonly sql: PostgresTurnSql,
    /** How the single-append statement fences (`PostgresSessionLeases.fence` / `fenceAndRelease`). */
    private readonly fences: { fence: (session: number, token: number) => string; fenceAndRelease: (session: number, token: number) => string; table: string },
    private readonly query: Query,
    private readonly isConnectionError: (error: unknown) => boolean,
    private readonly maxInFlight: number,
  ) {}

  /** Appends; resolves to false when the write was refused because its lease is no longer the session's. */
  append(append: PendingAppend): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ append, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The next batch: waiting appends in order, the first of each session, at most `MAX_BATCH`. */
  private take(): typeof this.waiting {
    const batch: typeof this.waiting = [];
    const sessions = new Set<string>();
    for (let index = 0; index < this.waiting.length && batch.length < MAX_BATCH; ) {
      const entry = this.waiting[index]!;
      if (sessions.has(entry.append.sessionId)) {
        index++;
        continue;
      }
      sessions.add(entry.append.sessionId);
      batch.push(entry);
      this.waiting.splice(index, 1);
    }
    return batch;
  }

  private async send(batch: typeof this.waiting): Promise<void> {
    try {
      const rows = batch.length === 1 ? await this.sendOne(batch[0]!.append) : await this.sendMany(batch.map((entry) => entry.append));
      const ok = new Map(rows.map((row) => [row.session_id, row.ok]));
      for (const entry of batch) entry.resolve(ok.get(entry.append.sessionId) === true);
    } catch (error) {
      if (batch.length === 1 || this.isConnectionError(error)) {
        for (const entry of batch) entry.reject(error);
        return;
      }
      // Rolled back whole: each append again on its own, so only a bad one fails.
      await Promise.all(batch.map((entry) => this.send([entry])));
    }
  }

  private async sendOne(append: PendingAppend): Promise<{ session_id: string; ok: boolean }[]> {
    const fence = append.release && append.token !== null ? this.fences.fenceAndRelease(1, 6) : this.fences.fence(1, 6);
    const rows = await this.query(this.sql.append(fence), this.sql.appendValues(append.sessionId, append.messages, append.token));
    return [{ session_id: append.sessionId, ok: rows[0]?.ok === true }];
  }

  /**
   * One statement for appends of different sessions, in session order (rows are locked in one
   * order, whatever the batch). Per append: its lease locked FOR SHARE (or deleted, with
   * `release`) when it has a token, its session row upserted for its sequence numbers, its
   * messages inserted; the insert trigger counts them per session.
   */
  private sendMany(appends: PendingAppend[]): Promise<{ session_id: string; ok: boolean }[]> {
    const t = this.tables;
    const locks = this.fences.table;
    const sorted = [...appends].sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
    const items = sorted.flatMap((append, index) => append.messages.map((message, position) => ({ index: index + 1, position: position + 1, message })));
    return this.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bool[], $4::bigint[]) WITH ORDINALITY AS i(session_id, token, release, n, ord)),
       lease AS (
         SELECT l.session_id FROM ${locks} l JOIN input i ON l.session_id = i.session_id AND l.token = i.token AND NOT i.release
         ORDER BY l.session_id FOR SHARE OF l),
       released AS (
         DELETE FROM ${locks} l USING input i WHERE l.session_id = i.session_id AND l.token = i.token AND i.release RETURNING l.session_id),
       permitted AS (
         SELECT i.session_id, i.n, i.ord, (i.token IS NULL OR i.session_id IN (SELECT session_id FROM lease) OR i.session_id IN (SELECT session_id FROM released)) AS ok
         FROM input i),
       session AS (
         INSERT INTO ${t.sessions} AS s (session_id, created_at, accessed_at, next_seq)
         SELECT p.session_id, $5::bigint, $5::bigint, p.n FROM permitted p WHERE p.ok ORDER BY p.session_id
         ON CONFLICT (session_id) DO UPDATE SET accessed_at = GREATEST(s.accessed_at, EXCLUDED.accessed_at), next_seq = s.next_seq + EXCLUDED.next_seq
         RETURNING s.session_id, s.next_seq),
       inserted AS (
         INSERT INTO ${t.messages} (session_id, seq, message_id, body)
         SELECT p.session_id, s.next_seq - p.n + item.position - 1, item.id, item.body
         FROM unnest($6::bigint[], $7::bigint[], $8::text[], $9::text[]) AS item(ord, position, id, body)
         JOIN permitted p ON p.ord = item.ord
         JOIN session s ON s.session_id = p.session_id
         ON CONFLICT (session_id, message_id) DO NOTHING)
       SELECT session_id, ok FROM permitted`,
      [
        sorted.map((append) => append.sessionId),
        sorted.map((append) => append.token),
        sorted.map((append) => append.release && append.token !== null),
        sorted.map((append) => append.messages.length),
        Date.now(),
        items.map((item) => item.index),
        items.map((item) => item.position),
        items.map((item) => item.message.id ?? null),
        items.map((item) => JSON.stringify(item.message)),
      ],
    );
  }
}
