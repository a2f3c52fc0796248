// The servers and places a test file's stores live in, for tests that run one check against
// every built-in store: a temporary directory (file and SQLite stores), a PostgreSQL schema and
// a Redis key prefix of the file's own, each left out when its server does not answer and all
// removed after the file's tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll } from "vitest";
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";
import { PostgresMemoryStore } from "../../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../../src/stores/sqlite/sqlite-memory-store";
import { deleteKeysWithPrefix, postgresUrl, redisUrl, serviceAvailable, uniqueName } from "./services";

export interface StoreServers {
  /** A temporary directory of this file's own. */
  directory: string;
  /** The Redis key prefix of this file's run (ends with `:`). */
  redisPrefix: string;
  /** The PostgreSQL schema of this file's run. */
  schema: string;
  /** A pool on the local PostgreSQL, undefined when it does not answer. */
  postgres: pg.Pool | undefined;
  /** A client of the local Redis, undefined when it does not answer. */
  redis: Redis | undefined;
}

/**
 * Opens the servers for the calling test file under `name` (e.g. `agentcore-message-ids`: the
 * directory's prefix, the Redis prefix, and with `_` for `-` the schema) and removes what they
 * hold after its tests.
 */
export async function openStoreServers(name: string, options: { postgresConnections: number }): Promise<StoreServers> {
  const directory = mkdtempSync(join(tmpdir(), `${name}-`));
  const redisPrefix = `${uniqueName(name)}:`;
  const schema = uniqueName(name.replaceAll("-", "_")).toLowerCase();
  const postgres = (await serviceAvailable("postgres"))
    ? new pg.Pool({ connectionString: postgresUrl, max: options.postgresConnections })
    : undefined;
  const redis = (await serviceAvailable("redis")) ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    if (postgres) {
      await postgres.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await postgres.end();
    }
    if (redis) {
      await deleteKeysWithPrefix(redis, redisPrefix);
      await redis.quit();
    }
  });
  return { directory, redisPrefix, schema, postgres, redis };
}

export type PersistentStore = PostgresMemoryStore | RedisMemoryStore | FileMemoryStore | SqliteMemoryStore;

/**
 * The four built-in stores that keep data outside the process, each a name and a factory
 * (undefined when its server does not answer). A factory gives a new store object each call;
 * given the same `key`, file and SQLite stores open the same file (Postgres and Redis always
 * share the file's schema or prefix), so a second object stands for another process or a
 * restart. Without a key each call opens a new file.
 */
export function persistentStores(servers: StoreServers): [string, ((key?: string) => PersistentStore) | undefined][] {
  const { directory, redisPrefix, schema, postgres, redis } = servers;
  let files = 0;
  const file = (key: string | undefined, extension: string) => join(directory, `${key ?? files++}.${extension}`);
  return [
    ["PostgresMemoryStore", postgres && (() => new PostgresMemoryStore({ pool: postgres, schema }))],
    ["RedisMemoryStore", redis && (() => new RedisMemoryStore({ client: redis, prefix: redisPrefix }))],
    ["FileMemoryStore", (key) => new FileMemoryStore(file(key, "json"))],
    ["SqliteMemoryStore", (key) => new SqliteMemoryStore(file(key, "db"))],
  ];
}
