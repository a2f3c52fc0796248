// A child process for the multi-process and crash tests. Bundled to CommonJS by
// test/helpers/bundle.ts (fast start-up), run with one JSON argument.
//   { mode: "writer", kind, target, writer, turns }: appends `turns` turns of 2 messages, then exits.
import BetterSqlite3 from "better-sqlite3";
import { Cluster, Redis } from "ioredis";
import pg from "pg";
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";
import type { MemoryStore } from "../../src/stores/memory-store";
import { PostgresMemoryStore } from "../../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../../src/stores/sqlite/sqlite-memory-store";

interface ChildConfig {
  mode: "writer" | "crash";
  kind: "file" | "sqlite" | "redis" | "redis-cluster" | "postgres";
  /** File path, SQLite file, Redis `url|prefix`, Redis Cluster `host:port,host:port…|prefix`, or Postgres `url|schema`. */
  target: string;
  writer?: number;
  turns?: number;
  sessionId?: string;
  compactAfterBytes?: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;

async function open(): Promise<{ store: MemoryStore; close: () => Promise<void> }> {
  switch (config.kind) {
    case "file":
      return {
        store: new FileMemoryStore({
          path: config.target,
          ...(config.compactAfterBytes ? { compactAfterBytes: config.compactAfterBytes } : {}),
        }),
        close: async () => {},
      };
    case "sqlite": {
      const store = new SqliteMemoryStore({ database: new BetterSqlite3(config.target), busyTimeoutMs: 20_000 });
      return { store, close: async () => void store.database.close() };
    }
    case "redis": {
      const [url, prefix] = config.target.split("|");
      const client = new Redis(url!);
      return {
        store: new RedisMemoryStore({ client, prefix: prefix! }),
        close: async () => void (await client.quit()),
      };
    }
    case "redis-cluster": {
      const [nodes, prefix] = config.target.split("|");
      const client = new Cluster(
        nodes!.split(",").map((node) => ({ host: node.split(":")[0]!, port: Number(node.split(":")[1]) })),
      );
      return {
        store: new RedisMemoryStore({ client, prefix: prefix! }),
        close: async () => void (await client.quit()),
      };
    }
    case "postgres": {
      const [url, schema] = config.target.split("|");
      const pool = new pg.Pool({ connectionString: url!, max: 2 });
      return { store: new PostgresMemoryStore({ pool, schema: schema! }), close: () => pool.end() };
    }
  }
}

async function main(): Promise<void> {
  const { store, close } = await open();
  const sessionId = config.sessionId ?? "shared";
  if (config.mode === "writer") {
    for (let turn = 0; turn < (config.turns ?? 100); turn++) {
      const prefix = `w${config.writer}-t${turn}`;
      await store.appendMessages!(sessionId, [
        { id: `${prefix}-u`, role: "user", content: `writer ${config.writer} turn ${turn}`, timestamp: Date.now() },
        { id: `${prefix}-a`, role: "assistant", content: `answer ${turn} ✓`, timestamp: Date.now() },
      ]);
    }
    await close();
    process.stdout.write("done\n");
    return;
  }
  // crash mode: continue the numbered turns from what is stored.
  let turn = (await store.getMessages(sessionId)).length / 2;
  process.stdout.write(`start ${turn}\n`);
  for (;;) {
    await store.appendMessages!(sessionId, [
      { id: `c${turn}-u`, role: "user", content: `turn ${turn} ${"x".repeat(200)}`, timestamp: Date.now() },
      { id: `c${turn}-a`, role: "assistant", content: `answer ${turn}`, timestamp: Date.now() },
    ]);
    turn += 1;
    process.stdout.write(`acked ${turn}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
