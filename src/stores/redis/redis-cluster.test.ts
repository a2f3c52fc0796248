// RedisMemoryStore on a real local Redis Cluster (3 masters, 3 replicas, started here by
// test/helpers/redis-cluster.ts): the conformance suite, one slot per session, listing and
// pruning across masters, memory tools in both fact scopes, a late lock holder fenced (its fact
// writes by a check of the lock right before them: the fact's and the lock's keys are in different
// slots), and a master failover.
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { bundleChild } from "../../../test/helpers/bundle";
import { startRedisCluster } from "../../../test/helpers/redis-cluster";
import { uniqueName } from "../../../test/helpers/services";
import { expectComplete, runWriters, TURNS, WRITERS } from "../../../test/helpers/store-writers";
import { Agent } from "../../agent/agent";
import { expectLateWriterFenced } from "../__fixtures__/expect-late-writer-fenced";
import { describeRedisThreads } from "../__fixtures__/expect-redis-threads";
import { backendOf } from "../backend-of";
import { emptyTotals } from "../usage-totals";
import { MockLanguageModel, type MockResponse } from "../../testing/mock-language-model";
import { testMemoryStore } from "../../testing/test-memory-store";
import { RedisMemoryStore } from "./redis-memory-store";

const cluster = await startRedisCluster();
const runPrefix = `${uniqueName("agentcore-cluster")}:`;
const clients: Cluster[] = [];

function newClient(): Cluster {
  const client = new Cluster(cluster!.nodes, { redisOptions: { maxRetriesPerRequest: 1 } });
  clients.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  await cluster?.stop();
}, 30_000);

/** The port of the master serving `key`'s slot. */
async function masterOf(client: Cluster, key: string): Promise<number> {
  const slot = Number(await client.call("CLUSTER", "KEYSLOT", key));
  const slots = (await client.call("CLUSTER", "SLOTS")) as [
    number,
    number,
    [string, number, ...unknown[]],
    ...unknown[],
  ][];
  const range = slots.find(([from, to]) => slot >= from && slot <= to)!;
  return range[2][1];
}

const call = (name: string, args: object): MockResponse => ({
  toolCalls: [{ id: `${name}-${Math.random().toString(36).slice(2, 8)}`, name, arguments: args }],
});

if (cluster) {
  let counter = 0;
  const shared = newClient();
  testMemoryStore(
    "RedisMemoryStore on a Redis Cluster",
    () => new RedisMemoryStore({ client: shared, prefix: `${runPrefix}${counter++}:` }),
    { requireCapabilities: "all" },
  );
  testMemoryStore(
    "RedisMemoryStore on a Redis Cluster (ttlMs)",
    () => new RedisMemoryStore({ client: shared, prefix: `${runPrefix}ttl${counter++}:`, ttlMs: 60_000 }),
    {
      requireCapabilities: "all",
    },
  );

  testMemoryStore(
    "RedisMemoryStore on a Redis Cluster (waitForReplicas)",
    () =>
      new RedisMemoryStore({
        client: shared,
        prefix: `${runPrefix}wait${counter++}:`,
        waitForReplicas: { replicas: 1, timeoutMs: 2_000 },
      }),
    { requireCapabilities: "all" },
  );

  describe("RedisMemoryStore threads on a Redis Cluster", () => {
    describeRedisThreads((prefix) => new RedisMemoryStore({ client: shared, prefix }), newClient(), runPrefix);
  });

  describe("RedisMemoryStore on a Redis Cluster", () => {
    it("measures what waiting for a replica's acknowledgement costs per turn", async () => {
      const client = newClient();
      const timed = async (name: string, store: RedisMemoryStore) => {
        const started = performance.now();
        for (let turn = 0; turn < 200; turn++) {
          await store.appendMessages(`cost-${turn % 10}`, [
            { id: `u${turn}`, role: "user", content: "question" },
            { id: `a${turn}`, role: "assistant", content: "answer" },
          ]);
        }
        return `${name} ${((performance.now() - started) / 200).toFixed(2)} ms`;
      };
      const plain = await timed("asynchronous", new RedisMemoryStore({ client, prefix: `${runPrefix}cost-plain:` }));
      const waiting = await timed(
        "waitForReplicas 1",
        new RedisMemoryStore({
          client,
          prefix: `${runPrefix}cost-wait:`,
          waitForReplicas: { replicas: 1, timeoutMs: 2_000 },
        }),
      );
      console.info(`[waitForReplicas] per 2-message append, sequential, local cluster: ${plain}; ${waiting}`);
      expect(
        await new RedisMemoryStore({ client, prefix: `${runPrefix}cost-wait:` }).getMessages("cost-0"),
      ).toHaveLength(40);
    });

    it("keeps every key of a session (and of a fact scope) in one slot", async () => {
      const client = newClient();
      const prefix = `${runPrefix}slots:`;
      const store = new RedisMemoryStore({ client, prefix });
      for (const id of ["s", "a}b:{c", "user:ada", "ü-é/😀"]) {
        await store.appendMessages(id, [{ id: "1", role: "user", content: "x" }]);
        await store.saveSummary(id, {
          id: "sum",
          content: "s",
          fromMessageId: "1",
          toMessageId: "1",
          messageCount: 1,
          model: "mock/mock",
          createdAt: 1,
        });
        await store.setFact(id, { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
        const release = await store.lockSession(id, { timeoutMs: 0 });
        const base = `${prefix}{${encodeURIComponent(id)}}`;
        const keys = ["messages", "ids", "meta", "summaries", "summary-ids", "facts", "lock"].map(
          (suffix) => `${base}:${suffix}`,
        );
        expect(await client.exists(...keys.slice(0, 5))).toBe(5); // written where we look: all in one slot (EXISTS of many keys needs one)
        const slots = await Promise.all(keys.map((key) => client.call("CLUSTER", "KEYSLOT", key)));
        expect(new Set(slots).size).toBe(1);
        await release();
      }
    });

    it("keeps a user's keys (their index and totals) in the user's own slot", async () => {
      const client = newClient();
      const prefix = `${runPrefix}user-slots:`;
      const store = new RedisMemoryStore({ client, prefix });
      const turn = await backendOf(store).openTurn("trip", { timeoutMs: 0, userId: "ada" });
      await turn.append([{ id: "1", role: "user", content: "x" }], {
        last: true,
        usage: { ...emptyTotals(), modelCalls: 1 },
      });
      await turn.release();
      const keys = ["sessions", "usage", "usage-by-day"].map((suffix) => `${prefix}user:{ada}:${suffix}`);
      expect(await client.exists(...keys)).toBe(3);
      expect(new Set(await Promise.all(keys.map((key) => client.call("CLUSTER", "KEYSLOT", key)))).size).toBe(1);
      expect(await store.getUsage({ userId: "ada" })).toEqual({ ...emptyTotals(), modelCalls: 1 });
    });

    it("lists and prunes sessions spread over all three masters", async () => {
      const client = newClient();
      const prefix = `${runPrefix}spread:`;
      const store = new RedisMemoryStore({ client, prefix });
      const ids = Array.from({ length: 30 }, (_, index) => `session-${index}`);
      for (const id of ids) await store.appendMessages(id, [{ id: "1", role: "user", content: id }]);
      const masters = new Set(await Promise.all(ids.map((id) => masterOf(client, `${prefix}{${id}}:meta`))));
      expect(masters.size).toBe(3);
      // The session index is 16 sorted sets in 16 slots, spread over every master (not one hot key).
      const indexKeys = Array.from({ length: 16 }, (_, shard) => `${prefix}sessions:{${shard}}`);
      const used = (
        await Promise.all(indexKeys.map(async (key) => ((await client.zcard(key)) > 0 ? [key] : [])))
      ).flat();
      expect(new Set(await Promise.all(used.map((key) => masterOf(client, key)))).size).toBe(3);
      expect((await store.entries()).map((entry) => entry.sessionId).sort()).toEqual([...ids].sort());
      const cutoff = Date.now() + 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.appendMessages("fresh", [{ id: "1", role: "user", content: "new" }]);
      expect((await store.prune({ olderThan: cutoff })).sort()).toEqual([...ids].sort());
      expect((await store.entries()).map((entry) => entry.sessionId)).toEqual(["fresh"]);
      for (const id of ids) expect(await store.getMessages(id)).toEqual([]);
    });

    it(`loses and duplicates nothing with ${WRITERS} processes × ${TURNS} turns on one session`, async () => {
      const child = await bundleChild("test/helpers/store-child.ts");
      const prefix = `${runPrefix}multi:`;
      try {
        await runWriters(
          child,
          "redis-cluster",
          `${cluster.nodes.map((node) => `${node.host}:${node.port}`).join(",")}|${prefix}`,
        );
        await expectComplete(new RedisMemoryStore({ client: newClient(), prefix }));
      } finally {
        rmSync(dirname(child), { recursive: true, force: true });
      }
    }, 60_000);

    it("fences a late lock holder, its fact writes in both scopes included (checked right before the write: another slot)", async () => {
      const client = newClient();
      const prefix = `${runPrefix}late:`;
      // The fact scopes' keys and the lock's are in different slots: no script can hold both.
      const slots = await Promise.all(
        ["{session%3As}:facts", "{user%3Au}:facts", "{s}:lock"].map((key) => client.call("CLUSTER", "KEYSLOT", key)),
      );
      expect(new Set(slots).size).toBe(3);
      // A 200 ms lease runs out between two renewals (they come every second at the least).
      const stale = new RedisMemoryStore({ client, prefix, lockLeaseMs: 200 });
      await expectLateWriterFenced(stale, new RedisMemoryStore({ client, prefix }));
    });

    for (const factScope of ["session", "user"] as const) {
      it(`runs an agent with memory tools, facts scoped by ${factScope}`, async () => {
        const store = new RedisMemoryStore({ client: newClient(), prefix: `${runPrefix}tools-${factScope}:` });
        const model = new MockLanguageModel({
          responses: [call("remember_fact", { key: "city", value: "Lisbon" }), { text: "Noted." }, { text: "Sunny." }],
        });
        const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, factScope });
        await agent.run({ input: "I live in Lisbon", sessionId: "thread-1", userId: "ada" });
        await agent.run({
          input: "weather?",
          sessionId: factScope === "user" ? "thread-2" : "thread-1",
          userId: "ada",
        });
        expect(model.calls[2]!.system).toContain('"city": "Lisbon"');
        const scope = factScope === "user" ? "user:ada" : "session:thread-1";
        expect((await store.getFacts(scope)).map((fact) => fact.value)).toEqual(["Lisbon"]);
        expect((await store.getMessages("thread-1")).length).toBeGreaterThanOrEqual(4);
      });
    }
  });
} else {
  describe("RedisMemoryStore on a Redis Cluster (no local cluster could be started)", () => {
    it.todo("needs redis-server and redis-cli");
  });
}
