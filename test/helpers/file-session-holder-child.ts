// A run holding a FileMemoryStore session lock, for test/file-store-stale-holder.test.ts.
// argv[2] = the store path; argv[3] = "sqlite" for a SqliteMemoryStore on that database file
// instead (lockLeaseMs 2000). Takes the lock on session "s" (staleLockMs 2000), appends its user
// message and prints "locked". The test then SIGKILLs it (a dead holder), or
// SIGSTOPs it past the stale time (a stalled one) and, once it is running again, sends "go": it
// then appends its answer and prints "written" or "refused <error name> <sessionId>
// <operation>", releases the lock and prints "released".
import { createInterface } from "node:readline";
import BetterSqlite3 from "better-sqlite3";
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";
import { SqliteMemoryStore } from "../../src/stores/sqlite/sqlite-memory-store";

const path = process.argv[2]!;
const store =
  process.argv[3] === "sqlite"
    ? new SqliteMemoryStore({ database: new BetterSqlite3(path), lockLeaseMs: 2000 })
    : new FileMemoryStore({ path, staleLockMs: 2000 });

async function main(): Promise<void> {
  const release = await store.lockSession("s", { timeoutMs: 10_000 });
  await store.appendMessages("s", [{ id: "a-user", role: "user", content: "question of the stalled run" }]);
  process.stdout.write("locked\n");
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));
  try {
    await store.appendMessages("s", [{ id: "a-answer", role: "assistant", content: "late answer" }]);
    process.stdout.write("written\n");
  } catch (error) {
    const { name, sessionId, operation } = error as { name: string; sessionId?: string; operation?: string };
    process.stdout.write(`refused ${name} ${sessionId} ${operation}\n`);
  }
  await release();
  process.stdout.write("released\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
