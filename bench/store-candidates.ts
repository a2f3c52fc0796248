// The server-backed stores the store benches measure side by side with the in-process ones: a
// store on the local Redis and one on the local PostgreSQL, each under a name of its own (key
// prefix, schema) that its close removes. Kept apart from harness.ts so that benches which do
// not open stores (cold start among them) do not load the store modules.
import type { MemoryStore } from "agentcore";
import { PostgresMemoryStore } from "agentcore/postgres";
import { RedisMemoryStore } from "agentcore/redis";
import { connectPostgres, connectRedis } from "./harness";

const redisUrl = process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface ServerStoreCandidate {
  name: string;
  /** Opens the store, or says why its rows are skipped (the server does not answer). */
  open(): Promise<{ store: MemoryStore; close(): Promise<void> } | string>;
}

export const serverStoreCandidates: ServerStoreCandidate[] = [
  {
    name: "RedisMemoryStore (local)",
    open: async () => {
      const client = await connectRedis(redisUrl);
      if (typeof client === "string") return client;
      const prefix = `agentcore-bench-${process.pid}-${Math.random().toString(36).slice(2)}:`;
      const store = new RedisMemoryStore({ client, prefix });
      return {
        store,
        close: async () => {
          await store.clearMessages("bench");
          await client.quit();
        },
      };
    },
  },
  {
    name: "PostgresMemoryStore (local)",
    open: async () => {
      const pool = await connectPostgres(postgresUrl);
      if (typeof pool === "string") return pool;
      const schema = `agentcore_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      const store = new PostgresMemoryStore({ pool, schema });
      return {
        store,
        close: async () => {
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await pool.end();
        },
      };
    },
  },
];
