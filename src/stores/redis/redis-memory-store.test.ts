import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { SessionBusyError } from "../../errors/session-busy-error";
import { testMemoryStore } from "../../testing/test-memory-store";
import { RedisMemoryStore } from "./redis-memory-store";

const available = await serviceAvailable("redis");
const runPrefix = `${uniqueName("agentcore-test")}:`;
const clients: Redis[] = [];

/** Deletes every key this run wrote, by the sessions index and known suffixes (never a glob). */
async function cleanup(): Promise<void> {
  if (!available) return;
  const client = new Redis(redisUrl);
  let cursor = "0";
  // SCAN with a MATCH on our own unique, fixed run prefix (no user input), test cleanup only.
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${runPrefix.replace(/[*?[\]\\]/g, "\\$&")}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== "0");
  await client.quit();
  await Promise.all(clients.map((client) => client.quit().catch(() => {})));
}

function newClient(): Redis {
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

afterAll(cleanup);

if (available) {
  let counter = 0;
  const shared = newClient();
  testMemoryStore("RedisMemoryStore", () => new RedisMemoryStore({ client: shared, prefix: `${runPrefix}${counter++}:` }));
  testMemoryStore("RedisMemoryStore (ttl)", () => new RedisMemoryStore({ client: shared, prefix: `${runPrefix}ttl${counter++}:`, ttl: 60_000 }));

  describe("RedisMemoryStore specifics", () => {
    it("keeps one session's keys in one hash-tag slot, escaped so ids cannot escape the prefix", async () => {
      const client = newClient();
      const prefix = `${runPrefix}layout:`;
      const store = new RedisMemoryStore({ client, prefix });
      await store.appendMessages("a}b:{c", [{ id: "1", role: "user", content: "x" }]);
      await store.setFact("a}b:{c", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
      expect(await client.exists(`${prefix}{a%7Db%3A%7Bc}:messages`, `${prefix}{a%7Db%3A%7Bc}:facts`, `${prefix}{a%7Db%3A%7Bc}:meta`)).toBe(3);
      expect(await client.zrange(`${prefix}sessions`, "0", "-1")).toEqual(["a}b:{c"]);
    });

    it("sets the ttl on every key of a session and refreshes it on write", async () => {
      const client = newClient();
      const prefix = `${runPrefix}ttl-check:`;
      const store = new RedisMemoryStore({ client, prefix, ttl: 5_000 });
      await store.appendMessages("s", [{ id: "1", role: "user", content: "x" }]);
      await store.setFact("s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
      for (const suffix of ["messages", "ids", "meta", "facts"]) {
        const ttl = await client.pttl(`${prefix}{s}:${suffix}`);
        expect(ttl).toBeGreaterThan(3_000);
        expect(ttl).toBeLessThanOrEqual(5_000);
      }
    });

    it("locks a session across clients; a second locker waits or is refused", async () => {
      const prefix = `${runPrefix}lock:`;
      const first = new RedisMemoryStore({ client: newClient(), prefix });
      const second = new RedisMemoryStore({ client: newClient(), prefix });
      const release = await first.lockSession("s", { timeoutMs: 0 });
      await expect(second.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
      await expect(second.lockSession("s", { timeoutMs: 50 })).rejects.toSatisfy(SessionBusyError.isInstance);
      const waiting = second.lockSession("s", { timeoutMs: 5_000 });
      await release();
      const releaseSecond = await waiting;
      await releaseSecond();
      await (await first.lockSession("other", { timeoutMs: 0 }))();
    });

    it("raises a StoreError naming the record when stored JSON is bad", async () => {
      const client = newClient();
      const prefix = `${runPrefix}bad:`;
      await client.rpush(`${prefix}{s}:messages`, "{not json");
      const store = new RedisMemoryStore({ client, prefix });
      await expect(store.getMessages("s")).rejects.toThrow(/message 0 of session "s"/);
    });
  });
} else {
  describe.skip("RedisMemoryStore (Redis not reachable)", () => {
    it("skipped", () => {});
  });
}
