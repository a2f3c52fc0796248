// 4 processes × 100 turns appended to one session, for every store that can be shared between
// processes: nothing lost, nothing duplicated, each writer's order kept, each turn whole.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, it } from "vitest";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { bundleChild } from "./helpers/bundle";
import { postgresUrl, redisUrl, serviceAvailable, uniqueName } from "./helpers/services";
import { expectComplete, runWriters as runStoreWriters, TURNS, WRITERS } from "./helpers/store-writers";

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

const runWriters = (kind: string, target: string) => runStoreWriters(child, kind, target);

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

  it.skipIf(!redisUp)(
    "RedisMemoryStore",
    async () => {
      const prefix = `${uniqueName("agentcore-multi")}:`;
      const client = new Redis(redisUrl);
      try {
        await runWriters("redis", `${redisUrl}|${prefix}`);
        await expectComplete(new RedisMemoryStore({ client, prefix }));
      } finally {
        await new RedisMemoryStore({ client, prefix }).clearMessages("shared");
        await client.quit();
      }
    },
    60_000,
  );

  it.skipIf(!postgresUp)(
    "PostgresMemoryStore",
    async () => {
      const schema = uniqueName("agentcore_multi").toLowerCase();
      const pool = new pg.Pool({ connectionString: postgresUrl });
      try {
        await runWriters("postgres", `${postgresUrl}|${schema}`);
        await expectComplete(new PostgresMemoryStore({ pool, schema }));
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      }
    },
    60_000,
  );
});
