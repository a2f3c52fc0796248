// PostgresMemoryStore's thread capabilities beyond the conformance suite, against the real server:
// ranges over sequence gaps, the ledger on the folded and batched appends, fencing, deleting a
// user whose session is held by a run.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { AgentMessage } from "../../messages/agent-message";
import { backendOf } from "../backend-of";
import { builtInPartsOf } from "../built-in-backend";
import { addTotals, emptyTotals, type UsageTotals } from "../usage-totals";
import { PostgresMemoryStore } from "./postgres-memory-store";

const available = await serviceAvailable("postgres");
const schema = uniqueName("agentcore_threads").toLowerCase();

/** Usage of `calls` model calls of `tokens` tokens each. */
const spent = (calls: number, tokens: number, cost = 0): UsageTotals => ({
  inputTokens: calls * tokens,
  outputTokens: calls * tokens,
  cachedInputTokens: calls,
  reasoningTokens: 0,
  totalTokens: calls * tokens * 2,
  modelCalls: calls,
  cost,
});

const text = (id: string, role: "user" | "assistant" = "user"): AgentMessage => ({ id, role, content: `text ${id}` });
const tool = (id: string): AgentMessage => ({ id, role: "tool", toolCallId: "c", name: "t", content: "result" });

describe.skipIf(!available)("PostgresMemoryStore threads", () => {
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 6 });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  const expireLeases = (prefix: string) =>
    pool.query(`UPDATE "${schema}"."${prefix}session_locks" SET expires_at = clock_timestamp() - interval '1 second'`);

  it("keeps a session's numbers dense through retried appends, cuts and replaces, and reads every range, with gaps too", async () => {
    const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "gaps_" });
    const messages = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, index) => text(`${prefix}${index}`));
    await store.appendMessages("s", messages("a", 10));
    await store.appendMessages("s", messages("a", 10)); // a retried append
    await store.appendMessages("s", [...messages("a", 10).slice(5), ...messages("b", 5)]); // a partial retry
    await store.deleteMessagesFrom("s", "b2");
    await store.appendMessages("s", messages("c", 12));
    await builtInPartsOf(store)!.replaceFrom!("s", "c10", messages("d", 3));
    const all = await store.getMessages("s");
    expect(all).toHaveLength(10 + 2 + 10 + 3);
    const table = `"${schema}"."gaps_messages"`;
    const numbers = async () =>
      (await pool.query(`SELECT min(seq)::int AS first, max(seq)::int AS last FROM ${table} WHERE session_id = 's'`))
        .rows[0];
    expect(await numbers()).toEqual({ first: 0, last: all.length - 1 });
    const everyRange = async () => {
      for (let start = 0; start <= all.length + 1; start++)
        for (const end of [start, start + 1, start + 3, start + 10, all.length, all.length + 5, Infinity])
          if (end >= start)
            expect(await store.getMessageRange("s", start, end), `${start}..${end}`).toEqual(all.slice(start, end));
    };
    await everyRange();
    // Gaps (an id stored by a concurrent append, tables of older versions): read by skipping key entries.
    await pool.query(`UPDATE ${table} SET seq = -seq - 1 WHERE session_id = 's'`);
    await pool.query(`UPDATE ${table} SET seq = (-seq) * 3 + (-seq) % 2 WHERE session_id = 's'`);
    expect((await numbers()).last).toBeGreaterThan(all.length * 2);
    await everyRange();
  });

  it("adds each session's usage once when appends of two sessions go in one batched statement, and nothing on their retry", async () => {
    const tablePrefix = "batch_";
    const setup = new PostgresMemoryStore({ pool, schema, tablePrefix });
    await setup.migrate();
    for (const id of ["a", "b"]) await backendOf(setup).claimSession(id, "ada");
    const statements: { text: string; values: unknown[] }[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    const counting = {
      query: (statement: { text: string; values: unknown[] }) => {
        statements.push(statement);
        return query(statement);
      },
      connect: pool.connect.bind(pool),
    } as unknown as pg.Pool;
    const store = new PostgresMemoryStore({ pool: counting, schema, tablePrefix });
    const send = () => {
      // The first append goes alone; the two sent while it runs go together.
      const warm = store.appendMessages("warm", [text("w")]);
      const a = store.appendMessages("a", [text("a1"), text("a2", "assistant")], { usage: spent(1, 10, 0.5) });
      const b = store.appendMessages("b", [text("b1"), text("b2", "assistant")], { usage: spent(2, 20, 0.25) });
      return Promise.all([warm, a, b]);
    };
    await send();
    const batched = statements.filter(
      (statement) => Array.isArray(statement.values[0]) && (statement.values[0] as string[]).join() === "a,b",
    );
    expect(batched).toHaveLength(1);
    expect(await store.getUsage({ sessionId: "a" })).toEqual(spent(1, 10, 0.5));
    expect(await store.getUsage({ sessionId: "b" })).toEqual(spent(2, 20, 0.25));
    expect(await store.getUsage({ userId: "ada" })).toEqual(addTotals(spent(1, 10, 0.5), spent(2, 20, 0.25)));
    expect((await store.getSession("b"))?.preview).toBe("text b2");
    await send(); // a retried batch stores nothing, so adds nothing
    expect(await store.getUsage({ userId: "ada", since: Date.now() })).toEqual(
      addTotals(spent(1, 10, 0.5), spent(2, 20, 0.25)),
    );
    expect(await store.getUsage({ sessionId: "a" })).toEqual(spent(1, 10, 0.5));
  });

  it("records usage and the preview with the folded last append that releases the lease", async () => {
    const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "folded_" });
    const folding = builtInPartsOf(store)!.folding!;
    await backendOf(store).claimSession("s", "bo");
    const { release } = await folding.lockSessionReadingTail("s", { timeoutMs: 1_000 }, 4);
    await store.appendMessages("s", [text("q")]);
    expect(
      await folding.appendMessagesAndUnlock("s", [text("r", "assistant"), tool("t")], { usage: spent(3, 5, 1.5) }),
    ).toBe(true);
    await release();
    expect(await store.getSession("s")).toMatchObject({ preview: "text r", usage: spent(3, 5, 1.5), messageCount: 3 });
    expect(await store.getUsage({ userId: "bo" })).toEqual(spent(3, 5, 1.5));
    // The lease was released by the append: another store takes the session at once.
    await (
      await new PostgresMemoryStore({ pool, schema, tablePrefix: "folded_" }).lockSession("s", { timeoutMs: 0 })
    )();
  });

  it("adds nothing for a holder whose lease was taken over: appends, replaces and titles are refused whole", async () => {
    const tablePrefix = "fenced_";
    const [first, second] = [0, 1].map(() => new PostgresMemoryStore({ pool, schema, tablePrefix }));
    await backendOf(first!).claimSession("s", "cy");
    await first!.appendMessages("s", [text("m")], { usage: spent(1, 1) });
    await first!.lockSession("s", { timeoutMs: 0 });
    await expireLeases(tablePrefix);
    const releaseSecond = await second!.lockSession("s", { timeoutMs: 0 });
    const refused = (promise: Promise<unknown>) => expect(promise).rejects.toSatisfy(SessionLockLostError.isInstance);
    await refused(first!.appendMessages("s", [text("stale")], { usage: spent(5, 5) }));
    await refused(builtInPartsOf(first!)!.replaceFrom!("s", "m", [text("edit")], { usage: spent(5, 5) }));
    await refused(backendOf(first!).titleSession("s", "Stale", spent(5, 5)));
    expect(await second!.getUsage({ sessionId: "s" })).toEqual(spent(1, 1));
    expect(await second!.getUsage({ userId: "cy" })).toEqual(spent(1, 1));
    expect((await second!.getSession("s"))?.title).toBeUndefined();
    await releaseSecond();
  });

  it("adds a replace's usage always, and takes its preview from the replacement or else from what is kept", async () => {
    const store = new PostgresMemoryStore({ pool, schema, tablePrefix: "replace_" });
    const replaceFrom = builtInPartsOf(store)!.replaceFrom!;
    await backendOf(store).claimSession("s", "di");
    await store.appendMessages("s", [text("q1"), text("a1", "assistant"), text("q2"), text("a2", "assistant")]);
    await replaceFrom("s", "a2", [text("a2b", "assistant")], { usage: spent(1, 4) });
    expect(await store.getSession("s")).toMatchObject({ preview: "text a2b", usage: spent(1, 4) });
    // Replacing with messages that have no text: the preview is the last text kept.
    await replaceFrom("s", "q2", [tool("t1")], { usage: spent(1, 4) });
    expect(await store.getSession("s")).toMatchObject({
      preview: "text a1",
      usage: addTotals(spent(1, 4), spent(1, 4)),
    });
    // A cut that keeps more than a page of messages without text walks back to the text before them.
    await store.appendMessages(
      "s",
      Array.from({ length: 45 }, (_, index) => tool(`x${index}`)),
    );
    await store.appendMessages("s", [text("last")]);
    await store.deleteMessagesFrom("s", "last");
    expect((await store.getSession("s"))?.preview).toBe("text a1");
    await store.deleteMessagesFrom("s", "q1");
    expect((await store.getSession("s"))?.preview).toBeUndefined();
    expect(await store.getUsage({ userId: "di" })).toEqual(addTotals(spent(1, 4), spent(1, 4)));
    await store.setMessages("s", [text("set", "assistant")]);
    expect((await store.getSession("s"))?.preview).toBe("text set");
  });

  it("deletes a user's session held by a run: the run's later writes are refused, and nothing of the user comes back", async () => {
    const tablePrefix = "held_";
    const [store, other] = [0, 1].map(() => new PostgresMemoryStore({ pool, schema, tablePrefix }));
    await backendOf(store!).claimSession("s", "ed");
    await store!.appendMessages("s", [text("m")], { usage: spent(1, 2) });
    const release = await store!.lockSession("s", { timeoutMs: 0 });
    expect(await other!.deleteUserData("ed")).toEqual({ sessions: 1, messages: 1, facts: 0 });
    await expect(store!.appendMessages("s", [text("late")], { usage: spent(1, 2) })).rejects.toSatisfy(
      SessionLockLostError.isInstance,
    );
    await release();
    expect(await other!.getSession("s")).toBeUndefined();
    expect(await other!.getUsage({ userId: "ed" })).toEqual(emptyTotals());
    expect(await other!.listSessions({ userId: "ed" })).toEqual({ sessions: [] });
  });
});
