// The folded turn statements of PostgresMemoryStore (lock + tail read, last append + release), against the real server.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { SessionBusyError } from "../../errors/session-busy-error";
import type { AgentMessage } from "../../messages/agent-message";
import { builtInPartsOf } from "../built-in-backend";
import { PostgresMemoryStore } from "./postgres-memory-store";

const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_fold").toLowerCase();

describe.skipIf(!available)("PostgresMemoryStore folded turn", () => {
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 4 });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  const message = (id: string): AgentMessage => ({ id, role: "user", content: `text of ${id}` });

  it("reads the tail with the lease, releases it with the last append, and the release function then does nothing", async () => {
    const first = new PostgresMemoryStore({ pool, schema, tablePrefix: "fold_" });
    const second = new PostgresMemoryStore({ pool, schema, tablePrefix: "fold_" });
    const folding = builtInPartsOf(first)!.folding!;
    await first.appendMessages("s", ["1", "2", "3", "4"].map(message));
    const { release, tail } = await folding.lockSessionReadingTail("s", { timeoutMs: 0 }, 3);
    expect(tail).toEqual(await first.getMessageTail("s", 3));
    await expect(second.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    expect(await folding.appendMessagesAndUnlock("s", [message("5")])).toBe(true);
    const releaseSecond = await second.lockSession("s", { timeoutMs: 0 });
    await release(); // must not free the second holder's lease
    await expect(first.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    await releaseSecond();
    expect((await first.getMessages("s")).map((stored) => stored.id)).toEqual(["1", "2", "3", "4", "5"]);
    // A session never stored: an empty tail, read again after the lock.
    const empty = await folding.lockSessionReadingTail("new", { timeoutMs: 0 }, 3);
    expect(empty.tail).toEqual({ messages: [], total: 0 });
    await empty.release();
  });

  it("reads the tail again when it took over an expired lease: the old holder's last writes are in it", async () => {
    const holder = new PostgresMemoryStore({ pool, schema, tablePrefix: "takeover_" });
    const next = new PostgresMemoryStore({ pool, schema, tablePrefix: "takeover_" });
    await holder.appendMessages("s", [message("1")]);
    await holder.lockSession("s", { timeoutMs: 0 });
    await pool.query(
      `UPDATE "${schema}"."takeover_session_locks" SET expires_at = clock_timestamp() - interval '1 second'`,
    );
    await holder.appendMessages("s", [message("2")]); // still its lease: not taken over yet
    const { release, tail } = await builtInPartsOf(next)!.folding!.lockSessionReadingTail("s", { timeoutMs: 0 }, 5);
    expect(tail?.messages.map((stored) => stored.id)).toEqual(["1", "2"]);
    await release();
  });

  it("takes the leases of runs that start together in shared statements: each tail its own, a session held elsewhere refused alone", async () => {
    const setup = new PostgresMemoryStore({ pool, schema, tablePrefix: "many_" });
    const sessions = Array.from({ length: 12 }, (_, index) => `s${index}`);
    for (const [index, session] of sessions.entries())
      await setup.appendMessages(
        session,
        Array.from({ length: index + 2 }, (_, position) => message(`${session}-${position}`)),
      );
    const releaseHeld = await setup.lockSession("s5", { timeoutMs: 0 });
    const statements: string[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    const counting = {
      query: (statement: { text: string }) => (statements.push(statement.text), query(statement)),
      connect: pool.connect.bind(pool),
    } as unknown as pg.Pool;
    const store = new PostgresMemoryStore({ pool: counting, schema, tablePrefix: "many_" });
    await store.migrate();
    const folding = builtInPartsOf(store)!.folding!;
    const taken = await Promise.allSettled(
      sessions.map((session) => folding.lockSessionReadingTail(session, { timeoutMs: 0 }, 3)),
    );
    const leaseStatements = statements.filter(
      (sql) => sql.includes("many_session_locks") && sql.includes("INSERT"),
    ).length;
    expect(leaseStatements).toBeLessThan(sessions.length);
    for (const [index, session] of sessions.entries()) {
      const outcome = taken[index]!;
      if (session === "s5") {
        expect(outcome.status === "rejected" && SessionBusyError.isInstance(outcome.reason)).toBe(true);
        continue;
      }
      expect(outcome.status).toBe("fulfilled");
      const { tail, release } = (
        outcome as PromiseFulfilledResult<Awaited<ReturnType<typeof folding.lockSessionReadingTail>>>
      ).value;
      expect(tail).toEqual(await setup.getMessageTail(session, 3));
      // Held: another store cannot take it until the run appends and releases.
      await expect(setup.lockSession(session, { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
      expect(await folding.appendMessagesAndUnlock(session, [message(`${session}-next`)])).toBe(true);
      await release();
      await (await setup.lockSession(session, { timeoutMs: 0 }))();
    }
    await releaseHeld();
  });
});
