// PostgreSQL batched statements (group commit of appends, batched lease takes) against the real
// server: one member's own failure fails that member alone, a failed batch leaves no lease held,
// errors name their session, and a holder whose lease was taken over cannot append and release.
// Figures are in docs/stores.md.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { Agent } from "../src/agent/agent";
import { SessionBusyError } from "../src/errors/session-busy-error";
import { SessionLockLostError } from "../src/errors/session-lock-lost-error";
import { StoreError } from "../src/errors/store-error";
import type { AgentMessage } from "../src/messages/agent-message";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { builtInPartsOf } from "../src/stores/built-in-backend";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { postgresUrl, serviceAvailable, uniqueName } from "./helpers/services";

const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_batchfaults").toLowerCase();
/** A lease far longer than any test: a lease left held would block its session for the rest of the run. */
const lockLeaseMs = 600_000;

/** A pool that records the text of each statement, and lets `intercept` replace a statement's answer. */
function recordingPool(
  pool: pg.Pool,
  intercept?: (text: string, send: () => Promise<unknown>) => Promise<unknown> | undefined,
): { pool: pg.Pool; statements: string[] } {
  const statements: string[] = [];
  const query = pool.query.bind(pool) as (statement: unknown) => Promise<unknown>;
  const recording = {
    query: (statement: { text: string }) => {
      statements.push(statement.text);
      const send = () => query(statement);
      return intercept?.(statement.text, send) ?? send();
    },
    connect: pool.connect.bind(pool),
  } as unknown as pg.Pool;
  return { pool: recording, statements };
}

const isBatchedLeaseTake = (text: string) => text.includes("session_locks") && text.includes("unnest(");
const isBatchedAppend = (text: string) => text.includes("INSERT INTO") && text.includes("(SELECT $5::bigint[])");

const pool = new pg.Pool({ connectionString: postgresUrl, max: 6 });
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.skipIf(!available)("PostgresMemoryStore batches: one bad member", () => {
  const message = (id: string): AgentMessage => ({ id, role: "user", content: `text of ${id}` });

  it("30 concurrent runs, one session holding a row that is not valid JSON: only that run fails, naming it, and no lease stays held", async () => {
    const tablePrefix = "badrow_";
    const setup = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    const sessions = Array.from({ length: 30 }, (_, index) => `s${index}`);
    const bad = "s17";
    for (const session of sessions) await setup.appendMessages(session, [message(`${session}-0`)]);
    await pool.query(`UPDATE "${schema}"."${tablePrefix}messages" SET body = '{not json' WHERE session_id = $1`, [bad]);
    const { pool: recording, statements } = recordingPool(pool);
    const store = new PostgresMemoryStore({ pool: recording, schema, tablePrefix, lockLeaseMs });
    await store.migrate();
    const agent = new Agent({
      model: new MockLanguageModel({ responses: () => ({ text: "ok" }) }),
      memoryStore: store,
      memory: "sliding_window",
      sessionLockTimeoutMs: 0,
    });
    const outcomes = await Promise.allSettled(
      sessions.map((session) => agent.run({ input: `hello ${session}`, sessionId: session })),
    );
    // The takes went in shared statements: the bad session's take had others beside it.
    expect(statements.filter(isBatchedLeaseTake).length).toBeGreaterThan(0);
    for (const [index, session] of sessions.entries()) {
      const outcome = outcomes[index]!;
      if (session !== bad) {
        expect(outcome.status === "fulfilled" && outcome.value.text).toBe("ok");
        expect(await setup.getMessages(session)).toHaveLength(3);
        continue;
      }
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason;
      expect(StoreError.isInstance(error) && [error.sessionId, error.store]).toEqual([bad, "PostgresMemoryStore"]);
      expect(String(error.message)).toContain(`"${bad}"`);
    }
    // No lease left behind (each would hold its session for 10 minutes): another store takes every
    // session at once, the bad one included.
    const other = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    for (const session of sessions) await (await other.lockSession(session, { timeoutMs: 0 }))();
  }, 30_000);

  it("a batch of lease takes whose answer is lost (the connection dies after the commit): every member fails naming its own session, and none of the leases stays held", async () => {
    const tablePrefix = "lostreply_";
    const setup = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    const sessions = Array.from({ length: 12 }, (_, index) => `s${index}`);
    for (const session of sessions) await setup.appendMessages(session, [message(`${session}-0`)]);
    let cut = 0;
    const { pool: cutting } = recordingPool(pool, (text, send) => {
      if (!isBatchedLeaseTake(text) || cut > 0) return undefined;
      cut++;
      // Committed on the server; the reply never arrives.
      return send().then(() => {
        throw new Error("Connection terminated unexpectedly");
      });
    });
    const store = new PostgresMemoryStore({ pool: cutting, schema, tablePrefix, lockLeaseMs });
    await store.migrate();
    const folding = builtInPartsOf(store)!.folding!;
    const taken = await Promise.allSettled(
      sessions.map((session) => folding.lockSessionReadingTail(session, { timeoutMs: 0 }, 5)),
    );
    expect(cut).toBe(1);
    const failed = taken.flatMap((outcome, index) =>
      outcome.status === "rejected" ? [[sessions[index], outcome.reason] as const] : [],
    );
    expect(failed.length).toBeGreaterThan(1);
    console.log(`[figures] lease batch cut after its commit: ${failed.length} of ${sessions.length} takes failed`);
    for (const [session, error] of failed)
      expect(StoreError.isInstance(error) && [error.sessionId, error.operation]).toEqual([session, "lockSession"]);
    for (const outcome of taken) if (outcome.status === "fulfilled") await outcome.value.release();
    const other = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    for (const session of sessions) await (await other.lockSession(session, { timeoutMs: 0 }))();
  });

  it("21 concurrent appends, two holding a value JSON cannot encode (a BigInt, a cyclic object in tool-call arguments): those two fail alone, naming their session; the other 19 are stored", async () => {
    const tablePrefix = "unencodable_";
    const { pool: recording, statements } = recordingPool(pool);
    const store = new PostgresMemoryStore({ pool: recording, schema, tablePrefix });
    await store.migrate();
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const toolCall = (session: string, value: unknown): AgentMessage => ({
      id: `${session}-call`,
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "lookup", arguments: { value } }],
    });
    const sessions = Array.from({ length: 21 }, (_, index) => `s${index}`);
    const unencodable = new Map<string, unknown>([
      ["s9", 10n],
      ["s14", cyclic],
    ]);
    // The first append goes alone; the ones sent while it runs go together.
    const outcomes = await Promise.allSettled(
      sessions.map((session) =>
        store.appendMessages(session, [
          message(`${session}-u`),
          unencodable.has(session) ? toolCall(session, unencodable.get(session)) : message(`${session}-a`),
        ]),
      ),
    );
    for (const [index, session] of sessions.entries()) {
      const outcome = outcomes[index]!;
      if (!unencodable.has(session)) {
        expect(outcome.status).toBe("fulfilled");
        expect((await store.getMessages(session)).map((stored) => stored.id)).toEqual([`${session}-u`, `${session}-a`]);
        continue;
      }
      const error = (outcome as PromiseRejectedResult).reason;
      expect(StoreError.isInstance(error) && [error.sessionId, error.operation]).toEqual([session, "appendMessages"]);
      expect(String(error.message)).toMatch(/message 1 .*cannot be stored as JSON/);
      // Whole or not at all: not even its first message.
      expect(await store.getMessages(session)).toEqual([]);
    }
    // The good appends went in shared statements (the bad ones never reached one).
    expect(statements.filter(isBatchedAppend).length).toBeGreaterThan(0);
  });
});

describe.skipIf(!available)("PostgresMemoryStore: appending and releasing after the lease was taken over", () => {
  const expireLeases = (tablePrefix: string) =>
    pool.query(
      `UPDATE "${schema}"."${tablePrefix}session_locks" SET expires_at = clock_timestamp() - interval '1 second'`,
    );

  it("an agent run that stalled past its lease: its last append (folded with the release) is refused with SessionLockLostError, its answer not stored, the new holder keeps its lease", async () => {
    const tablePrefix = "lateturn_";
    let stalled!: () => void;
    let modelCalled!: () => void;
    const called = new Promise<void>((resolve) => (modelCalled = resolve));
    const store = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    const agent = new Agent({
      model: new MockLanguageModel({
        responses: async () => {
          modelCalled();
          await new Promise<void>((resolve) => (stalled = resolve));
          return { text: "late answer" };
        },
      }),
      memoryStore: store,
    });
    const late = agent.run({ input: "question A", sessionId: "s" });
    await called;
    // Run A stalls (a GC pause, a SIGSTOP) past its lease; another holder takes the session.
    await expireLeases(tablePrefix);
    const second = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    const releaseSecond = await second.lockSession("s", { timeoutMs: 0 });
    await second.appendMessages("s", [{ id: "b", role: "user", content: "question B" }]);
    stalled();
    const error = await late.catch((caught: unknown) => caught);
    expect(SessionLockLostError.isInstance(error) && [error.sessionId, error.operation]).toEqual([
      "s",
      "appendMessages",
    ]);
    const stored = await second.getMessages("s");
    expect(stored.map((message) => message.content)).toEqual(["question A", "question B"]);
    // The refused release did not free the new holder's lease.
    const third = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    await expect(third.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    await releaseSecond();
  });

  it("appends-and-releases batched together after their leases were taken over: each refused with SessionLockLostError, nothing written, the new holders keep their leases", async () => {
    const tablePrefix = "latebatch_";
    const { pool: recording, statements } = recordingPool(pool);
    const first = new PostgresMemoryStore({ pool: recording, schema, tablePrefix, lockLeaseMs });
    const second = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    await first.migrate();
    const folding = builtInPartsOf(first)!.folding!;
    const sessions = Array.from({ length: 8 }, (_, index) => `s${index}`);
    for (const session of sessions) await folding.lockSessionReadingTail(session, { timeoutMs: 0 }, 5);
    await expireLeases(tablePrefix);
    const releases = await Promise.all(sessions.map((session) => second.lockSession(session, { timeoutMs: 0 })));
    statements.length = 0;
    // A first append goes alone; the stale appends-and-releases sent while it runs go together.
    const warm = first.appendMessages("warm", [{ id: "w", role: "user", content: "warm" }]);
    const outcomes = await Promise.allSettled(
      sessions.map((session) =>
        folding.appendMessagesAndUnlock(session, [{ id: `${session}-late`, role: "assistant", content: "late" }]),
      ),
    );
    await warm;
    expect(statements.filter(isBatchedAppend).length).toBeGreaterThan(0);
    for (const [index, session] of sessions.entries()) {
      const outcome = outcomes[index]!;
      const error = outcome.status === "rejected" ? outcome.reason : undefined;
      expect(SessionLockLostError.isInstance(error) && error.sessionId).toBe(session);
      expect(await second.getMessages(session)).toEqual([]);
    }
    // The new holders' leases are still theirs: their fenced writes go through, a third store is kept out.
    const third = new PostgresMemoryStore({ pool, schema, tablePrefix, lockLeaseMs });
    for (const session of sessions) {
      await second.appendMessages(session, [{ id: `${session}-b`, role: "user", content: "B" }]);
      await expect(third.lockSession(session, { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    }
    for (const release of releases) await release();
  });
});
