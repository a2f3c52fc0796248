// A run that lost its session lock writes no working memory field: update_working_memory's writes
// are fenced by the run's session lock like remember_fact's (SQLite and Redis: a short lease the
// stalled run cannot renew in time; the other stores share the fenced fact write these prove).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { SessionLockLostError } from "../src/errors/session-lock-lost-error";
import type { MemoryStore } from "../src/stores/memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { openStoreServers } from "./helpers/store-servers";

const { redis, redisPrefix } = await openStoreServers("agentcore-wm-lost-lock", { postgresConnections: 1 });
const directory = mkdtempSync(join(tmpdir(), "agentcore-wm-lost-lock-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface LostLockCase {
  stale: MemoryStore;
  next: MemoryStore;
  takeOver: () => Promise<() => Promise<void>>;
}

const cases: [string, (() => LostLockCase) | undefined][] = [
  [
    "SqliteMemoryStore",
    () => {
      const database = join(directory, "lost.db");
      const next = new SqliteMemoryStore(database);
      return {
        stale: new SqliteMemoryStore({ database, lockLeaseMs: 200 }),
        next,
        takeOver: () => next.lockSession("s", { timeoutMs: 20_000 }),
      };
    },
  ],
  [
    "RedisMemoryStore",
    redis &&
      (() => {
        const next = new RedisMemoryStore({ client: redis, prefix: redisPrefix });
        return {
          stale: new RedisMemoryStore({ client: redis, prefix: redisPrefix, lockLeaseMs: 200 }),
          next,
          takeOver: () => next.lockSession("s", { timeoutMs: 20_000 }),
        };
      }),
  ],
];

const schema = z.object({ name: z.string().max(40).optional() });

describe.each(cases)("working memory on %s, after the run lost its session", (_name, makeCase) => {
  it.skipIf(!makeCase)("update_working_memory fails the run at its write and writes no field", async () => {
    const { stale, next, takeOver } = makeCase!();
    let releaseNext: (() => Promise<void>) | undefined;
    const model = new MockLanguageModel({
      responses: async (_call, index) => {
        if (index > 0) return { text: "Done." };
        // The run stalls here past its lock; the next run takes the session.
        releaseNext = await takeOver();
        return { toolCalls: [{ name: "update_working_memory", arguments: { set: { name: "Late" } } }] };
      },
    });
    const agent = new Agent({ model, memoryStore: stale, sessionId: "s", workingMemory: { schema, scope: "user" } });
    const error = await agent.run({ input: "I'm Late", userId: "u" }).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(SessionLockLostError.isInstance(error) && error.sessionId).toBe("s");
    expect(model.calls).toHaveLength(1);
    const reader = new Agent({ model, memoryStore: next, workingMemory: { schema, scope: "user" } });
    expect((await reader.getWorkingMemory({ userId: "u" })).profile).toEqual({});
    await releaseNext?.();
  });
});
