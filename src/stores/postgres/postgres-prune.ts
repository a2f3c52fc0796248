// `PostgresMemoryStore.prune`: the sessions not used since a time, with their messages, summaries
// and context reports, in one transaction.
import type { PostgresTables } from "./postgres-schema";
import type { PostgresStatements } from "./postgres-statements";

/** Deletes the sessions not accessed since `olderThan`; resolves to their ids. */
export async function prunePostgresSessions(
  statements: PostgresStatements,
  t: PostgresTables,
  olderThan: number,
): Promise<string[]> {
  return await statements.transaction("prune", undefined, async (client) => {
    const { rows } = await client.query<{ session_id: string }>(
      `DELETE FROM ${t.sessions} WHERE accessed_at < $1 RETURNING session_id`,
      [olderThan],
    );
    const ids = rows.map((row) => row.session_id);
    if (ids.length > 0) {
      await client.query(`DELETE FROM ${t.messages} WHERE session_id = ANY($1::text[])`, [ids]);
      await client.query(`DELETE FROM ${t.summaries} WHERE session_id = ANY($1::text[])`, [ids]);
      await client.query(`DELETE FROM ${t.contextReports} WHERE session_id = ANY($1::text[])`, [ids]);
    }
    return ids;
  });
}
