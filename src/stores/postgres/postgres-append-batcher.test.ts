// Group commit of PostgresMemoryStore appends (PostgresAppendBatcher), against the real server.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { builtInPartsOf } from "../built-in-backend";
import type { AgentMessage } from "../../messages/agent-message";
import { PostgresMemoryStore } from "./postgres-memory-store";

const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_batch").toLowerCase();

describe.skipIf(!available)("PostgresMemoryStore group commit", () => {
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 6 });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  const message = (id: string): AgentMessage => ({ id, role: "user", content: `text of ${id}` });

  it("writes concurrent appends of many sessions in fewer statements, each whole, in order, counted, and idempotent on retry", async () => {
    const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "many_" });
    await store.migrate();
    const statements: string[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    // The store sends named statements ({ name, text, values }).
    const counting = {
      query: (statement: { text: string }) => (statements.push(statement.text), query(statement)),
      connect: pool.connect.bind(pool),
    } as unknown as pg.Pool;
    const counted = new PostgresMemoryStore({ pool: counting, schema, tablePrefix: "many_" });
    const sessions = Array.from({ length: 30 }, (_, index) => `s${index}`);
    const appends = (session: string, turn: number) => [
      message(`${session}-${turn}-u`),
      message(`${session}-${turn}-a`),
    ];
    await Promise.all(
      sessions.map(async (session) => {
        for (let turn = 0; turn < 5; turn++) await counted.appendMessages(session, appends(session, turn));
      }),
    );
    // Retried appends (a run that did not see its answer) and a repeated id in one call change nothing.
    await Promise.all(
      sessions.map((session) => counted.appendMessages(session, [...appends(session, 0), message(`${session}-0-u`)])),
    );
    const appendStatements = statements.filter((sql) => /INSERT INTO .*many_messages/s.test(sql)).length;
    expect(appendStatements).toBeLessThan(sessions.length * 6);
    for (const session of sessions) {
      const expected = Array.from({ length: 5 }, (_, turn) => appends(session, turn))
        .flat()
        .map((stored) => stored.id);
      expect((await store.getMessages(session)).map((stored) => stored.id)).toEqual(expected);
      expect((await store.getMessageTail(session, 2)).total).toBe(10);
    }
  });

  it("refuses only the fenced append of a batch: a holder whose lease was taken over gets SessionLockLostError, the appends beside it are written", async () => {
    const first = new PostgresMemoryStore({ pool, schema, tablePrefix: "fence_" });
    const second = new PostgresMemoryStore({ pool, schema, tablePrefix: "fence_" });
    await first.migrate();
    await first.lockSession("lost", { timeoutMs: 0 });
    await pool.query(
      `UPDATE "${schema}"."fence_session_locks" SET expires_at = clock_timestamp() - interval '1 second'`,
    );
    const releaseSecond = await second.lockSession("lost", { timeoutMs: 0 });
    // The first append goes alone; the ones sent while it runs wait and go together.
    const alone = first.appendMessages("warm", [message("w")]);
    const others = ["ok1", "ok2", "ok3", "ok4"].map((session) =>
      first.appendMessages(session, [message(`${session}-m`)]),
    );
    const refused = first.appendMessages("lost", [message("stale")]);
    await expect(refused).rejects.toSatisfy(SessionLockLostError.isInstance);
    await Promise.all([alone, ...others]);
    for (const session of ["warm", "ok1", "ok2", "ok3", "ok4"])
      expect(await first.getMessages(session)).toHaveLength(1);
    expect(await first.getMessages("lost")).toEqual([]);
    // deleteMessagesFrom is fenced the same way: the new holder's turn stays whole.
    await second.appendMessages("lost", [message("kept")]);
    const keptId = (await second.getMessages("lost"))[0]!.id!;
    await expect(first.deleteMessagesFrom("lost", keptId)).rejects.toSatisfy(SessionLockLostError.isInstance);
    await expect(builtInPartsOf(first)!.replaceFrom!("lost", keptId, [message("stale-edit")])).rejects.toSatisfy(
      SessionLockLostError.isInstance,
    );
    expect((await second.getMessages("lost")).map((stored) => stored.id)).toEqual([keptId]);
    await releaseSecond();
  });
});
