// One app server for test/stores-many-servers.test.ts, bundled by test/helpers/bundle.ts and run
// with one JSON argument: an Agent on a shared store runs `turns` turns on each of `sessions`,
// the sessions concurrently, every turn a tool call and its result before the answer.
import { Redis } from "ioredis";
import pg from "pg";
import { z } from "zod";
import { Agent } from "../../src/agent/agent";
import type { MemoryStore } from "../../src/stores/memory-store";
import { PostgresMemoryStore } from "../../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../../src/stores/redis/redis-memory-store";
import { MockLanguageModel } from "../../src/testing/mock-language-model";
import { tool } from "../../src/tools/tool";

interface ServerConfig {
  kind: "postgres" | "redis";
  /** Postgres `url|schema` or Redis `url|prefix`. */
  target: string;
  server: number;
  sessions: string[];
  turns: number;
  /** Connections in this process's pg pool. */
  poolSize?: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as ServerConfig;

async function open(): Promise<{ store: MemoryStore; close: () => Promise<void> }> {
  const [url, namespace] = config.target.split("|");
  if (config.kind === "redis") {
    const client = new Redis(url!);
    return {
      store: new RedisMemoryStore({ client, prefix: namespace! }),
      close: async () => void (await client.quit()),
    };
  }
  const pool = new pg.Pool({ connectionString: url!, max: config.poolSize ?? 2 });
  pool.on("error", () => {});
  return { store: new PostgresMemoryStore({ pool, schema: namespace! }), close: () => pool.end() };
}

async function main(): Promise<void> {
  const { store, close } = await open();
  // The model calls `note` once per turn (a call id of its own), then answers with what it was given.
  const model = new MockLanguageModel({
    responses: (call) => {
      const last = call.messages.at(-1)!;
      if (last.role === "user")
        return { toolCalls: [{ id: `call-${last.content}`, name: "note", arguments: { text: last.content } }] };
      return { text: `answer to ${call.messages.findLast((message) => message.role === "user")!.content}` };
    },
  });
  const note = tool({
    description: "Takes a note.",
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => `noted ${text}`,
  });
  const agent = new Agent({
    model,
    memoryStore: store,
    tools: { note },
    memory: "sliding_window",
    maxMessages: 5,
    sessionLockTimeoutMs: 60_000,
  });
  await Promise.all(
    config.sessions.map(async (sessionId) => {
      for (let turn = 0; turn < config.turns; turn++) {
        await agent.run({ input: `s${config.server} ${sessionId} t${turn}`, sessionId });
        model.calls.length = 0;
      }
    }),
  );
  await close();
  process.stdout.write("done\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
