import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { expectFactScopes } from "../__fixtures__/expect-fact-scopes";
import { expectLockWaitAborts } from "../__fixtures__/expect-lock-wait-aborts";
import { expectLateWriterFenced } from "../__fixtures__/expect-late-writer-fenced";
import { Agent } from "../../agent/agent";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionBusyError } from "../../errors/session-busy-error";
import { testMemoryStore } from "../../testing/test-memory-store";
import type { SummaryRecord } from "../memory-store";
import { backendOf } from "../backend-of";
import { SqliteMemoryStore } from "./sqlite-memory-store";

const directory = mkdtempSync(join(tmpdir(), "agentcore-sqlite-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let counter = 0;
testMemoryStore(
  "SqliteMemoryStore (file)",
  () => new SqliteMemoryStore(join(directory, `conformance-${counter++}.db`)),
  {
    teardown: (store) => (store as SqliteMemoryStore).close(),
    requireCapabilities: "all",
  },
);
testMemoryStore(
  "SqliteMemoryStore (a Database you own, :memory:)",
  () => new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") }),
  { requireCapabilities: "all" },
);

describe("SqliteMemoryStore specifics", () => {
  it("raises a CorruptStoreError naming the session when its metadata is corrupt (getSession, entries)", async () => {
    const store = new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") });
    await store.updateSession("s", { tags: ["a"] });
    store.database.prepare(`UPDATE "agentcore_sessions" SET tags = '{oops'`).run();
    for (const read of [() => store.getSession("s"), () => store.entries()]) {
      const error = await read().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(CorruptStoreError.isInstance(error) && error.sessionId === "s").toBe(true);
    }
  });

  it("refuses ids with lone surrogates, so entries() never returns an id other than the one written", async () => {
    const store = new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") });
    for (const id of ["x\ud800", "x\udfff"]) {
      await expect(store.appendMessages(id, [{ id: "1", role: "user", content: "x" }])).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
      await expect(store.getFacts(`user:${id}`)).rejects.toSatisfy(InvalidArgumentError.isInstance);
    }
    await store.appendMessages("x\ufffd\ud83d\ude00", [{ id: "1", role: "user", content: "x" }]);
    expect((await store.entries()).map((entry) => entry.sessionId)).toEqual(["x\ufffd\ud83d\ude00"]);
  });

  it("refuses unknown options, naming the right one (tableName is tablePrefix)", () => {
    expect(() => new SqliteMemoryStore({ database: ":memory:", tableName: "mine_" } as never)).toThrow(
      /no option "tableName": use "tablePrefix"/,
    );
    expect(() => new SqliteMemoryStore({ database: ":memory:", busytimeoutms: 5 } as never)).toThrow(
      /no option "busytimeoutms": use "busyTimeoutMs"/,
    );
  });

  it("uses WAL, a busy timeout and a versioned schema", () => {
    const store = new SqliteMemoryStore({ database: join(directory, "pragmas.db"), busyTimeoutMs: 1234 });
    expect(store.database.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.database.pragma("busy_timeout", { simple: true })).toBe(1234);
    expect(store.database.pragma("synchronous", { simple: true })).toBe(2); // FULL
    expect(store.database.prepare(`SELECT version FROM "agentcore_schema_version"`).get()).toEqual({ version: 5 });
    // The newest summaries come from the (session_id, seq) index, not a sort of all of them.
    const plan = store.database
      .prepare(
        `EXPLAIN QUERY PLAN SELECT body FROM (SELECT seq, body FROM "agentcore_summaries" WHERE session_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
      )
      .all("s", 4) as { detail: string }[];
    expect(plan.map((row) => row.detail)).toContain(
      "SEARCH agentcore_summaries USING INDEX agentcore_summaries_session (session_id=?)",
    );
    store.close();
    // Reopening migrates nothing and keeps data.
    const again = new SqliteMemoryStore(join(directory, "pragmas.db"));
    again.close();
  });

  it("migrates a version 1 database: message_count backfilled from the messages, getMessageTail reads it", async () => {
    const file = join(directory, "v1.db");
    // The schema and writes of the version 1 code, verbatim.
    const raw = new BetterSqlite3(file);
    raw.exec(`
      CREATE TABLE "agentcore_schema_version" (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
      CREATE TABLE "agentcore_sessions" (session_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, accessed_at INTEGER NOT NULL, agent_name TEXT, tags TEXT) WITHOUT ROWID;
      CREATE INDEX "agentcore_sessions_accessed_at" ON "agentcore_sessions" (accessed_at);
      CREATE TABLE "agentcore_messages" (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT, body TEXT NOT NULL, UNIQUE (session_id, message_id));
      CREATE INDEX "agentcore_messages_session" ON "agentcore_messages" (session_id, seq);
      CREATE TABLE "agentcore_facts" (scope_id TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (scope_id, key)) WITHOUT ROWID;
      CREATE TABLE "agentcore_summaries" (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL, summary_id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (session_id, summary_id));
      CREATE TABLE "agentcore_locks" (session_id TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO "agentcore_schema_version" (id, version) VALUES (1, 1);
    `);
    const touch = raw.prepare(
      `INSERT INTO "agentcore_sessions" (session_id, created_at, accessed_at) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET accessed_at = max(accessed_at, excluded.accessed_at)`,
    );
    const insert = raw.prepare(
      `INSERT OR IGNORE INTO "agentcore_messages" (session_id, message_id, body) VALUES (?, ?, ?)`,
    );
    const messages = (session: string, count: number) =>
      Array.from(
        { length: count },
        (_, index) =>
          ({
            id: `${session}-${index}`,
            role: index % 2 ? "assistant" : "user",
            content: `${session} ${index}`,
          }) as const,
      );
    const written = { big: messages("big", 250), small: messages("small", 3) };
    for (const [session, list] of Object.entries(written)) {
      touch.run(session, 1, 1);
      for (const message of list) insert.run(session, message.id, JSON.stringify(message));
    }
    touch.run("empty", 1, 1); // a session with metadata only
    raw.close();

    const store = new SqliteMemoryStore(file);
    expect(store.database.prepare(`SELECT version FROM "agentcore_schema_version"`).get()).toEqual({ version: 5 });
    expect(
      store.database
        .prepare(
          `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'agentcore_summaries' AND sql IS NOT NULL`,
        )
        .all(),
    ).toEqual([{ name: "agentcore_summaries_session" }]);
    expect(
      store.database.prepare(`SELECT session_id, message_count FROM "agentcore_sessions" ORDER BY session_id`).all(),
    ).toEqual([
      { session_id: "big", message_count: 250 },
      { session_id: "empty", message_count: 0 },
      { session_id: "small", message_count: 3 },
    ]);
    // Version 4: the sessions of version 1 stay ownerless; a new one gets its owner, listed through the index.
    expect((await store.getSession("big"))?.userId).toBeUndefined();
    await backendOf(store).claimSession("owned", "ada");
    expect((await store.listSessions({ userId: "ada" })).sessions.map((entry) => entry.sessionId)).toEqual(["owned"]);
    const plan = store.database
      .prepare(
        `EXPLAIN QUERY PLAN SELECT session_id FROM "agentcore_sessions" WHERE user_id = ? ORDER BY accessed_at DESC, session_id DESC LIMIT 20`,
      )
      .all("ada") as { detail: string }[];
    expect(plan.map((row) => row.detail).join(" ")).toContain("agentcore_sessions_user");
    expect(await store.getMessageTail("big", 4)).toEqual({ messages: written.big.slice(-4), total: 250 });
    expect(await store.getMessageTail("small", 10)).toEqual({ messages: written.small, total: 3 });
    expect(await store.getMessageTail("empty", 10)).toEqual({ messages: [], total: 0 });
    expect((await store.getSession("big"))?.messageCount).toBe(250);
    // Version 5: positions backfilled, so ranges are read by position.
    expect(await store.getMessageRange("big", 100, 103)).toEqual(written.big.slice(100, 103));
    // Writes after the upgrade keep counting from the backfilled value.
    await store.appendMessages("big", messages("more", 2));
    expect((await store.getMessageTail("big", 1)).total).toBe(252);
    expect(await store.getMessageRange("big", 249, 300)).toEqual([written.big[249], ...messages("more", 2)]);
    store.close();
    // Opening again migrates nothing more.
    const again = new SqliteMemoryStore(file);
    expect((await again.getMessageTail("big", 0)).total).toBe(252);
    again.close();
  });

  it("counts exactly under concurrent appends from several store instances, and not for ids already stored", async () => {
    const file = join(directory, "count.db");
    const stores = Array.from({ length: 4 }, () => new SqliteMemoryStore(file));
    const turn = (writer: number, index: number) =>
      [
        { id: `${writer}-${index}-u`, role: "user", content: "u" },
        { id: `${writer}-${index}-a`, role: "assistant", content: "a" },
      ] as const;
    await Promise.all(
      stores.map(async (store, writer) => {
        for (let index = 0; index < 25; index++) await store.appendMessages("s", [...turn(writer, index)]);
      }),
    );
    const rows = () =>
      (
        stores[0]!.database.prepare(`SELECT count(*) AS n FROM "agentcore_messages" WHERE session_id = 's'`).get() as {
          n: number;
        }
      ).n;
    expect(rows()).toBe(4 * 25 * 2);
    expect((await stores[1]!.getMessageTail("s", 3)).total).toBe(rows());
    // Retried appends (whole, partial, repeated within one call) change nothing.
    await stores[2]!.appendMessages("s", [...turn(0, 0), ...turn(3, 24)]);
    await stores[3]!.appendMessages("s", [
      ...turn(1, 5),
      { id: "new", role: "user", content: "n" },
      { id: "new", role: "user", content: "n" },
    ]);
    const tail = await stores[0]!.getMessageTail("s", 2);
    expect(tail.total).toBe(4 * 25 * 2 + 1);
    expect(tail.total).toBe(rows());
    expect(tail.messages.at(-1)?.id).toBe("new");
    expect((await stores[0]!.getSession("s"))?.messageCount).toBe(rows());
    for (const store of stores) store.close();
  });

  it("refuses a schema newer than itself", () => {
    const file = join(directory, "newer.db");
    new SqliteMemoryStore(file).close();
    const raw = new BetterSqlite3(file);
    raw.prepare(`UPDATE "agentcore_schema_version" SET version = 7`).run();
    raw.close();
    expect(() => new SqliteMemoryStore(file)).toThrow(/newer than this agentcore/);
  });

  it("lists the scopes that hold facts", async () => {
    const store = new SqliteMemoryStore(join(directory, "scopes.db"));
    await expectFactScopes(store);
    store.close();
  });

  it("shares one file between two store instances, appends idempotent across them", async () => {
    const file = join(directory, "shared.db");
    const [first, second] = [new SqliteMemoryStore(file), new SqliteMemoryStore(file)];
    await first.appendMessages("s", [{ id: "1", role: "user", content: "a" }]);
    await second.appendMessages("s", [
      { id: "1", role: "user", content: "a" },
      { id: "2", role: "assistant", content: "b" },
    ]);
    expect((await first.getMessages("s")).map((message) => message.id)).toEqual(["1", "2"]);
    const release = await first.lockSession("s", { timeoutMs: 0 });
    await expect(second.lockSession("s", { timeoutMs: 30 })).rejects.toSatisfy(SessionBusyError.isInstance);
    const waiting = second.lockSession("s", { timeoutMs: 5_000 });
    await release();
    await (await waiting)();
    first.close();
    second.close();
  });

  it("stops waiting for a session lock held by another instance when the signal aborts", async () => {
    const file = join(directory, "abort.db");
    const [first, second] = [new SqliteMemoryStore(file), new SqliteMemoryStore(file)];
    await expectLockWaitAborts(first, second);
    first.close();
    second.close();
  });

  it("frees the lock of a holder that died once its lease ends", async () => {
    const file = join(directory, "lease.db");
    const dead = new SqliteMemoryStore({ database: file, lockLeaseMs: 100 });
    await dead.lockSession("s", { timeoutMs: 0 }); // never released: the holder "crashed"
    dead.close();
    const alive = new SqliteMemoryStore(file);
    await (await alive.lockSession("s", { timeoutMs: 2_000 }))();
    alive.close();
  });

  it("fences a late holder: append, setMessages, deleteMessagesFrom and its delete-and-append, context report refused (SessionLockLostError, nothing written)", async () => {
    const file = join(directory, "fence.db");
    const [stale, next] = [new SqliteMemoryStore({ database: file, lockLeaseMs: 200 }), new SqliteMemoryStore(file)];
    await expectLateWriterFenced(stale, next);
    stale.close();
    next.close();
  });

  it("fences a late holder's clearMessages, updateSession and saveSummary too; an instance holding no lock writes unfenced", async () => {
    const file = join(directory, "fence-others.db");
    const stale = new SqliteMemoryStore({ database: file, lockLeaseMs: 200 });
    const [next, outsider] = [new SqliteMemoryStore(file), new SqliteMemoryStore(file)];
    const releaseStale = await stale.lockSession("s", { timeoutMs: 0 });
    const releaseNext = await next.lockSession("s", { timeoutMs: 20_000 }); // once the stale lease ran out
    await next.appendMessages("s", [{ id: "b-user", role: "user", content: "b" }]);
    const summary: SummaryRecord = {
      id: "sum",
      content: "x",
      fromMessageId: "b-user",
      toMessageId: "b-user",
      messageCount: 1,
      model: "mock/model",
      createdAt: 1,
    };
    const refused = await Promise.all(
      [
        () => stale.clearMessages("s"),
        () => stale.updateSession("s", { agentName: "late" }),
        () => stale.saveSummary("s", summary),
      ].map((write) =>
        write().then(
          () => "written",
          (error: unknown) => SessionLockLostError.isInstance(error) && error.operation,
        ),
      ),
    );
    expect(refused).toEqual(["clearMessages", "updateSession", "saveSummary"]);
    expect(await next.getSession("s")).not.toHaveProperty("agentName");
    expect(await next.getSummaries("s")).toEqual([]);
    // Not fenced: a write by an instance that holds no lock on the session (as on every store).
    await outsider.appendMessages("s", [{ id: "c-user", role: "user", content: "c" }]);
    expect((await next.getMessages("s")).map((stored) => stored.id)).toEqual(["b-user", "c-user"]);
    await releaseStale();
    await releaseNext();
    for (const store of [stale, next, outsider]) store.close();
  });

  it("deleteUserData deletes a session a run holds, whose later writes are refused (the ledger untouched)", async () => {
    const file = join(directory, "delete-held.db");
    const [running, admin] = [new SqliteMemoryStore(file), new SqliteMemoryStore(file)];
    const turn = await backendOf(running).openTurn("held", { timeoutMs: 0, tailLimit: 4, userId: "ada" });
    await turn.append([{ id: "q", role: "user", content: "question" }]);
    expect(await admin.deleteUserData("ada")).toEqual({ sessions: 1, messages: 1, facts: 0 });
    const usage = {
      inputTokens: 1,
      outputTokens: 1,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      totalTokens: 2,
      modelCalls: 1,
      cost: 0,
    };
    const late = turn.append([{ id: "a", role: "assistant", content: "answer" }], { last: true, usage });
    await expect(late).rejects.toSatisfy(SessionLockLostError.isInstance);
    await expect(backendOf(running).titleSession("held", "Late", usage)).rejects.toSatisfy(
      SessionLockLostError.isInstance,
    );
    await turn.release();
    expect(await admin.getSession("held")).toBeUndefined();
    expect((await admin.getUsage({ userId: "ada" })).modelCalls).toBe(0);
    running.close();
    admin.close();
  });

  it("an agent run that stalled past its lease fails with SessionLockLostError; the history holds the next run's turn, never the late answer", async () => {
    const file = join(directory, "fence-agent.db");
    let resume: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (resume = resolve));
    const slowModel = new MockLanguageModel({
      responses: async () => {
        await stalled; // a GC pause, a SIGSTOP: the lease runs out meanwhile
        return { text: "late answer of A" };
      },
    });
    const storeOfA = new SqliteMemoryStore({ database: file, lockLeaseMs: 200 });
    const storeOfB = new SqliteMemoryStore(file);
    const first = new Agent({ model: slowModel, memoryStore: storeOfA, sessionId: "s" });
    const second = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "answer of B" }] }),
      memoryStore: storeOfB,
      sessionId: "s",
    });
    const runOfA = first.run("question of A").then(
      () => undefined,
      (error: unknown) => error,
    );
    while (slowModel.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await second.run("question of B"); // waits for A's lease to run out, then takes the session
    resume();
    const error = await runOfA;
    expect(SessionLockLostError.isInstance(error) && error.sessionId).toBe("s");
    // A's question was stored while A held the lock; its answer, written after the takeover, is not.
    expect((await storeOfB.getMessages("s")).map((stored) => [stored.role, stored.content])).toEqual([
      ["user", "question of A"],
      ["user", "question of B"],
      ["assistant", "answer of B"],
    ]);
    storeOfA.close();
    storeOfB.close();
  });

  it("raises a StoreError naming the record when a stored body is bad, and a clear error for a bad path", async () => {
    const store = new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") });
    await store.appendMessages("s", [{ id: "1", role: "user", content: "x" }]);
    store.database.prepare(`UPDATE "agentcore_messages" SET body = '{oops'`).run();
    await expect(store.getMessages("s")).rejects.toThrow(/message 0 of session "s"/);
    expect(() => new SqliteMemoryStore(join(directory, "missing-dir", "x", "a.db"))).toThrow(
      /Could not open the SQLite database/,
    );
  });
});
