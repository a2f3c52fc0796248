/**
 * One agent, six stores: the same conversation kept in memory, in a JSON file, in SQLite, in
 * Redis, in Redis over HTTP (Upstash) and in PostgreSQL. Redis and PostgreSQL parts are skipped
 * with a message when no server answers (set REDIS_URL / DATABASE_URL to point at yours); the
 * Upstash part runs when UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are set.
 *
 *   npx tsx examples/stores.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis } from "ioredis";
import pg from "pg";
import { Agent, FileMemoryStore, InMemoryStore, type MemoryStore } from "agentcore";
import { PostgresMemoryStore } from "agentcore/postgres";
import { RedisMemoryStore } from "agentcore/redis";
import { SqliteMemoryStore } from "agentcore/sqlite";
import { UpstashRedisMemoryStore } from "agentcore/upstash";
import { MockLanguageModel } from "agentcore/testing";

const model = new MockLanguageModel({
  responses: (call) => ({ text: `I have seen ${call.messages.length} message(s) of this conversation.` }),
});

/** Two turns on one session; the second answer shows the first turn came back from the store. */
async function converse(label: string, memoryStore: MemoryStore): Promise<void> {
  const agent = new Agent({ name: "assistant", model, memoryStore, sessionId: "user-42" });
  await agent.run("Hi, I prefer TypeScript.");
  const second = await agent.run("What do I prefer?");
  const session = await memoryStore.getSession?.("user-42");
  console.log(
    `${label.padEnd(10)} ${second.text}  (stored: ${session?.messageCount ?? "?"} messages, agent ${session?.agentName ?? "?"})`,
  );
  await memoryStore.clearMessages("user-42");
}

const directory = mkdtempSync(join(tmpdir(), "agentcore-example-stores-"));
try {
  await converse("memory", new InMemoryStore({ maxSessions: 10_000, ttlMs: 24 * 60 * 60 * 1000 }));
  await converse("file", new FileMemoryStore(join(directory, "agent-sessions.json")));

  const sqlite = new SqliteMemoryStore(join(directory, "agent.db"));
  await converse("sqlite", sqlite);
  sqlite.close();

  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await converse(
      "redis",
      new RedisMemoryStore({ client: redis, prefix: "agentcore-example:", ttlMs: 7 * 24 * 60 * 60 * 1000 }),
    );
  } catch (error) {
    console.log(
      `redis      skipped: no Redis server answered (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    redis.disconnect();
  }

  if (process.env.UPSTASH_REDIS_REST_URL && process.env.UPSTASH_REDIS_REST_TOKEN) {
    // Redis over HTTP: the store for edge routes and serverless (no TCP connection, no Node built-in).
    await converse(
      "upstash",
      new UpstashRedisMemoryStore({
        client: UpstashRedis.fromEnv(),
        prefix: "agentcore-example:",
        ttlMs: 7 * 24 * 60 * 60 * 1000,
      }),
    );
  } else {
    console.log(
      "upstash    skipped: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN to use an Upstash database",
    );
  }

  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    connectionTimeoutMillis: 2000,
  });
  try {
    const store = new PostgresMemoryStore({ pool, tablePrefix: "agentcore_example_" });
    await store.migrate(); // also runs on first use; calling it at start-up fails early
    await converse("postgres", store);
  } catch (error) {
    console.log(
      `postgres   skipped: no PostgreSQL server answered (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    await pool.end();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
