import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SessionBusyError } from "../../errors/session-busy-error";
import { testMemoryStore } from "../../testing/test-memory-store";
import { SqliteMemoryStore } from "./sqlite-memory-store";

const directory = mkdtempSync(join(tmpdir(), "agentcore-sqlite-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let counter = 0;
testMemoryStore("SqliteMemoryStore (file)", () => new SqliteMemoryStore(join(directory, `conformance-${counter++}.db`)), {
  teardown: (store) => (store as SqliteMemoryStore).close(),
});
testMemoryStore("SqliteMemoryStore (a Database you own, :memory:)", () => new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") }));

describe("SqliteMemoryStore specifics", () => {
  it("uses WAL, a busy timeout and a versioned schema", () => {
    const store = new SqliteMemoryStore({ database: join(directory, "pragmas.db"), busyTimeoutMs: 1234 });
    expect(store.database.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.database.pragma("busy_timeout", { simple: true })).toBe(1234);
    expect(store.database.pragma("synchronous", { simple: true })).toBe(2); // FULL
    expect(store.database.prepare(`SELECT version FROM "agentcore_schema_version"`).get()).toEqual({ version: 1 });
    store.close();
    // Reopening migrates nothing and keeps data.
    const again = new SqliteMemoryStore(join(directory, "pragmas.db"));
    again.close();
  });

  it("refuses a schema newer than itself", () => {
    const file = join(directory, "newer.db");
    new SqliteMemoryStore(file).close();
    const raw = new BetterSqlite3(file);
    raw.prepare(`UPDATE "agentcore_schema_version" SET version = 7`).run();
    raw.close();
    expect(() => new SqliteMemoryStore(file)).toThrow(/newer than this agentcore/);
  });

  it("shares one file between two store instances, appends idempotent across them", async () => {
    const file = join(directory, "shared.db");
    const [first, second] = [new SqliteMemoryStore(file), new SqliteMemoryStore(file)];
    await first.appendMessages("s", [{ id: "1", role: "user", content: "a" }]);
    await second.appendMessages("s", [{ id: "1", role: "user", content: "a" }, { id: "2", role: "assistant", content: "b" }]);
    expect((await first.getMessages("s")).map((message) => message.id)).toEqual(["1", "2"]);
    const release = await first.lockSession("s", { timeoutMs: 0 });
    await expect(second.lockSession("s", { timeoutMs: 30 })).rejects.toSatisfy(SessionBusyError.isInstance);
    const waiting = second.lockSession("s", { timeoutMs: 5_000 });
    await release();
    await (await waiting)();
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

  it("raises a StoreError naming the record when a stored body is bad, and a clear error for a bad path", async () => {
    const store = new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") });
    await store.appendMessages("s", [{ id: "1", role: "user", content: "x" }]);
    store.database.prepare(`UPDATE "agentcore_messages" SET body = '{oops'`).run();
    await expect(store.getMessages("s")).rejects.toThrow(/message 0 of session "s"/);
    expect(() => new SqliteMemoryStore(join(directory, "missing-dir", "x", "a.db"))).toThrow(/Could not open the SQLite database/);
  });
});
