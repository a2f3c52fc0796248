// A stop from another process (issue 42): the run streams here, a child process opens its own
// store on the same Redis or PostgreSQL and calls stopRun. The text streamed until then is stored
// as the stopped answer, the model saw its signal fire, the session is free at once.
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../src/agent/agent";
import { contentText } from "../src/messages/content-text";
import type { MemoryStore } from "../src/stores/memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { bundleChild } from "./helpers/bundle";
import { GatedModel } from "./helpers/gated-model";
import { postgresUrl, redisUrl, serviceAvailable, uniqueName } from "./helpers/services";

const run = promisify(execFile);
const [redisUp, postgresUp] = [await serviceAvailable("redis"), await serviceAvailable("postgres")];
let child: string;

beforeAll(async () => {
  child = await bundleChild("test/helpers/stop-child.ts");
}, 60_000);
afterAll(() => {
  if (child) rmSync(dirname(child), { recursive: true, force: true });
});

async function stopFromChild(store: MemoryStore, kind: "redis" | "postgres", target: string): Promise<void> {
  const sessionId = `stop-child-${process.pid}`;
  const model = new GatedModel([{ text: "An answer stopped from another process." }], { open: 2 });
  const stream = new Agent({ model, memoryStore: store }).stream({ input: "Talk", sessionId });
  await model.atGate();
  await run(process.execPath, [child, JSON.stringify({ kind, target, sessionId })]);
  const result = await stream.response;
  await model.aborted();
  expect(result.finishReason).toBe("stopped");
  expect(result.text).toBe("An answe");
  const stored = await store.getMessages(sessionId);
  expect(stored.map((message) => contentText(message.content))).toEqual(["Talk", "An answe"]);
  expect(stored[1]).toMatchObject({ finishReason: "stopped" });
  const next = new Agent({
    model: new MockLanguageModel({ responses: [{ text: "Next." }] }),
    memoryStore: store,
    concurrency: "reject",
  });
  expect((await next.run({ input: "Again", sessionId })).text).toBe("Next.");
}

describe("a stop from another process", () => {
  it.skipIf(!redisUp)(
    "RedisMemoryStore (pub/sub)",
    async () => {
      const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
      const prefix = `${uniqueName("agentcore-stop-child")}:`;
      try {
        await stopFromChild(new RedisMemoryStore({ client, prefix }), "redis", `${redisUrl}|${prefix}`);
      } finally {
        await new RedisMemoryStore({ client, prefix }).clearMessages(`stop-child-${process.pid}`);
        await client.quit();
      }
    },
    60_000,
  );

  it.skipIf(!postgresUp)(
    "PostgresMemoryStore (LISTEN/NOTIFY)",
    async () => {
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 4 });
      const schema = uniqueName("agentcore_stop_child").toLowerCase();
      try {
        await stopFromChild(new PostgresMemoryStore({ pool, schema }), "postgres", `${postgresUrl}|${schema}`);
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      }
    },
    60_000,
  );
});
