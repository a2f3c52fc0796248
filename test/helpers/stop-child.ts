// A child process for the cross-process stop test (test/stop-multi-process.test.ts). Bundled to
// CommonJS by test/helpers/bundle.ts, run with one JSON argument:
//   { kind: "redis" | "postgres", target: "url|prefix" or "url|schema", sessionId }
// It opens its own store on the same database, sends `stopRun` for the session, and exits.
import { Redis } from "ioredis";
import pg from "pg";
import { stopRun } from "../../src/agent/stop-run";
import { PostgresMemoryStore } from "../../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../../src/stores/redis/redis-memory-store";

const config = JSON.parse(process.argv[2] ?? "{}") as { kind: "redis" | "postgres"; target: string; sessionId: string };
const [url, name] = config.target.split("|") as [string, string];

async function main(): Promise<void> {
  if (config.kind === "redis") {
    const client = new Redis(url, { maxRetriesPerRequest: 1 });
    await stopRun({ sessionId: config.sessionId, memoryStore: new RedisMemoryStore({ client, prefix: name }) });
    await client.quit();
  } else {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await stopRun({ sessionId: config.sessionId, memoryStore: new PostgresMemoryStore({ pool, schema: name }) });
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
