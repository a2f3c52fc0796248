// 4 processes × 100 turns appended to one session, for every store that can be shared between
// processes: nothing lost, nothing duplicated, each writer's order kept, each turn whole.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import BetterSqlite3 from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { bundleChild } from "./helpers/bundle";
import { postgresUrl, redisUrl, serviceAvailable, uniqueName } from "./helpers/services";

const run = promisify(execFile);
const WRITERS = 4;
const TURNS = 100;
const [redisUp, postgresUp] = [await serviceAvailable("redis"), await serviceAvailable("postgres")];
const directory = mkdtempSync(join(tmpdir(), "agentcore-multi-"));
let child: string;

beforeAll(async () => {
  child = await bundleChild("test/helpers/store-child.ts");
}, 60_000);
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  if (child) rmSync(dirname(child), { recursive: true, force: true });
});

async function runWriters(kind: string, target: string): Promise<void> {
  await Promise.all(
    Array.from({ length: WRITERS }, (_, writer) =>
      run(process.execPath, [child, JSON.stringify({ mode: "writer", kind, target, writer, turns: TURNS })], { timeout: 60_000 }),
    ),
  );
}

async function expectComplete(store: MemoryStore): Promise<void> {
  const ids = (await store.getMessages("shared")).map((message) => message.id!);
  const lost = WRITERS * TURNS * 2 - new Set(ids).size;
  const duplicated = ids.length - new Set(ids).size;
  expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  for (let writer = 0; writer < WRITERS; writer++) {
    const own = ids.filter((id) => id.startsWith(`w${writer}-`));
    expect(own).toEqual(Array.from({ length: TURNS }, (_, turn) => [`w${writer}-t${turn}-u`, `w${writer}-t${turn}-a`]).flat());
  }
  for (let index = 0; index < ids.length; index += 2) expect(ids[index + 1]).toBe(ids[index]!.replace(/-u$/, "-a"));
  // A store that keeps the session's size beside the messages kept it exact under the race.
  if (store.getMessageTail) expect(await store.getMessageTail("shared", 2)).toEqual({ messages: (await store.getMessages("shared")).slice(-2), total: ids.length });
}

describe(`${WRITERS} processes × ${TURNS} turns on one session`, () => {
  it("FileMemoryStore", async () => {
    const path = join(directory, "file", "sessions.json");
    await runWriters("file", path);
    await expectComplete(new FileMemoryStore(path));
  }, 60_000);

  it("SqliteMemoryStore", async () => {
    const file = join(directory, "sessions.db");
    new SqliteMemoryStore(file).close(); // migrate once up front (migration is safe concurrently too)
    await runWriters("sqlite", file);
    const store = new SqliteMemoryStore({ database: new BetterSqlite3(file) });
    await expectComplete(store);
    store.database.close();
  }, 60_000);

  it.skipIf(!redisUp)("RedisMemoryStore", async () => {
    const prefix = `${uniqueName("agentcore-multi")}:`;
    const client = new Redis(redisUrl);
    try {
      await runWriters("redis", `${redisUrl}|${prefix}`);
      await expectComplete(new RedisMemoryStore({ client, prefix }));
    } finally {
      await new RedisMemoryStore({ client, prefix }).clearMessages("shared");
      await client.quit();
    }
  }, 60_000);

  it.skipIf(!postgresUp)("PostgresMemoryStore", async () => {
    const schema = uniqueName("agentcore_multi").toLowerCase();
    const pool = new pg.Pool({ connectionString: postgresUrl });
    try {
      await runWriters("postgres", `${postgresUrl}|${schema}`);
      await expectComplete(new PostgresMemoryStore({ pool, schema }));
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  }, 60_000);
});
