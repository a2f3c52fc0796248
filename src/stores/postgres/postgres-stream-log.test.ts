// PostgresMemoryStore's stream log (postgres-stream-log.ts) on the real local PostgreSQL: a
// reconnecting client follows by LISTEN on one client of the store's pool, which goes back to the
// pool (UNLISTEN) when the stream ends; expired streams are deleted by the next stream's start.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { foldResponse, recordingEnded, startHeldTurn } from "../../../test/helpers/resumable-turns";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { resumeStream } from "../../streaming/resume-stream";
import { PostgresMemoryStore } from "./postgres-memory-store";

const available = await serviceAvailable("postgres");
const application = uniqueName("agentcore-stream-log");
const schema = uniqueName("agentcore_stream_log").toLowerCase();
const pool = available
  ? new pg.Pool({ connectionString: postgresUrl, max: 4, application_name: application })
  : undefined;
afterAll(async () => {
  if (!pool) return;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.skipIf(!available)("the PostgreSQL stream log", () => {
  it("follows by LISTEN while the answer streams, and gives the client back at its end", async () => {
    const store = new PostgresMemoryStore({ pool: pool!, schema });
    const held = await startHeldTurn(store, "followed");
    const lastQueries = async () =>
      (
        await pool!.query<{ query: string }>(
          "SELECT query FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle' AND query LIKE '%LISTEN%'",
          [application],
        )
      ).rows.map((row) => row.query);
    const resumed = foldResponse(await resumeStream({ sessionId: "followed", memoryStore: store }));
    // The follower listens once the replay caught up with what was recorded.
    while (!(await lastQueries()).includes('LISTEN "agentcore_streams"'));
    held.open();
    const { message } = await resumed;
    await held.result.response;
    expect(message?.role).toBe("assistant");
    // UNLISTEN, then back to the pool, once the stream ended (not awaited by the response: wait for it).
    while (!(await lastQueries()).includes('UNLISTEN "agentcore_streams"'));
    expect(pool!.idleCount + pool!.waitingCount).toBeGreaterThan(0);
  });

  it("deletes expired streams when the next one starts", async () => {
    const store = new PostgresMemoryStore({ pool: pool!, schema, tablePrefix: "expiry_" });
    const held = await startHeldTurn(store, "old", { resumable: { ttlMs: 1 } });
    held.open();
    await held.result.response;
    const count = async () =>
      Number((await pool!.query(`SELECT count(*) FROM "${schema}"."expiry_streams"`)).rows[0].count);
    expect(await count()).toBe(1);
    expect((await resumeStream({ sessionId: "old", memoryStore: store })).status).toBe(204);
    const next = await startHeldTurn(store, "new");
    next.open();
    await next.result.response;
    await recordingEnded(store, "new");
    expect(await count()).toBe(1);
  });
});
