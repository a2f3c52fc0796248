// RedisMemoryStore against the local Redis: the conformance suite (with and without ttlMs) and what is
// Redis's own: commands sent, key layout, session index shards, replicas, ttl, bad records, options, locks.
import { describe, expect, it } from "vitest";
import { expectFactScopes } from "../__fixtures__/expect-fact-scopes";
import { expectLockWaitAborts } from "../__fixtures__/expect-lock-wait-aborts";
import { describeRedisThreads } from "../__fixtures__/expect-redis-threads";
import { serviceAvailable } from "../../../test/helpers/services";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionBusyError } from "../../errors/session-busy-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import { testMemoryStore } from "../../testing/test-memory-store";
import { RedisMemoryStore } from "./redis-memory-store";
import { redisTestRun } from "../../../test/helpers/redis-test-run";

const available = await serviceAvailable("redis");
const { runPrefix, newClient } = redisTestRun(available);

if (available) {
  let counter = 0;
  const shared = newClient();
  testMemoryStore(
    "RedisMemoryStore",
    () => new RedisMemoryStore({ client: shared, prefix: `${runPrefix}${counter++}:` }),
    { requireCapabilities: "all" },
  );
  testMemoryStore(
    "RedisMemoryStore (ttlMs)",
    () => new RedisMemoryStore({ client: shared, prefix: `${runPrefix}ttl${counter++}:`, ttlMs: 60_000 }),
    { requireCapabilities: "all" },
  );

  describe("RedisMemoryStore threads", () => {
    const raw = newClient();
    describeRedisThreads((prefix) => new RedisMemoryStore({ client: shared, prefix }), raw, runPrefix);
  });

  describe("RedisMemoryStore specifics", () => {
    it("reads the whole history with one plain LRANGE (no script copying it through Lua), a tail and its length with one script", async () => {
      const sent: string[] = [];
      const spy = new Proxy(newClient(), {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (property === "call") sent.push(String(args[0]));
            if (property === "evalsha") sent.push("script"); // an EVAL after NOSCRIPT is the same script
            return value.apply(target, args);
          };
        },
      });
      const store = new RedisMemoryStore({ client: spy, prefix: `${runPrefix}reads:` });
      await store.appendMessages(
        "s",
        ["1", "2", "3", "4"].map((id) => ({ id, role: "user", content: `text ${id}` })),
      );
      const ids = (messages: AgentMessage[]) => messages.map((message) => message.id);
      sent.length = 0;
      expect(ids(await store.getMessages("s"))).toEqual(["1", "2", "3", "4"]);
      const whole = await store.getMessageTail("s", Infinity);
      expect([ids(whole.messages), whole.total]).toEqual([["1", "2", "3", "4"], 4]);
      expect(sent).toEqual(["LRANGE", "LRANGE"]);
      sent.length = 0;
      const tail = await store.getMessageTail("s", 2);
      expect([ids(tail.messages), tail.total]).toEqual([["3", "4"], 4]);
      expect(await store.getMessageTail("s", 0)).toEqual({ messages: [], total: 4 });
      expect(await store.getMessages("missing")).toEqual([]);
      expect(sent).toEqual(["script", "script", "LRANGE"]);
    });

    it("keeps one session's keys in one hash-tag slot, escaped so ids cannot escape the prefix", async () => {
      const client = newClient();
      const prefix = `${runPrefix}layout:`;
      const store = new RedisMemoryStore({ client, prefix });
      await store.appendMessages("a}b:{c", [{ id: "1", role: "user", content: "x" }]);
      await store.setFact("a}b:{c", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
      expect(
        await client.exists(
          `${prefix}{a%7Db%3A%7Bc}:messages`,
          `${prefix}{a%7Db%3A%7Bc}:facts`,
          `${prefix}{a%7Db%3A%7Bc}:meta`,
        ),
      ).toBe(3);
      const indexed = await Promise.all(
        Array.from({ length: 16 }, (_, shard) => client.zrange(`${prefix}sessions:{${shard}}`, "0", "-1")),
      );
      expect(indexed.flat()).toEqual(["a}b:{c"]);
    });

    it("moves sessions from the old single index (<prefix>sessions) into the shards, then lists and prunes them", async () => {
      const client = newClient();
      const prefix = `${runPrefix}legacy-index:`;
      const store = new RedisMemoryStore({ client, prefix });
      const ids = Array.from({ length: 40 }, (_, index) => `old-${index}`);
      for (const id of ids) await store.appendMessages(id, [{ id: "1", role: "user", content: id }]);
      // An index as the store used to write it: one sorted set; "old-0" was written since the upgrade.
      for (let shard = 0; shard < 16; shard++) await client.del(`${prefix}sessions:{${shard}}`);
      await client.zadd(`${prefix}sessions`, ...ids.flatMap((id) => [1, id]));
      await store.appendMessages("old-0", [{ id: "2", role: "assistant", content: "since" }]);
      expect((await store.entries()).map((entry) => entry.sessionId).sort()).toEqual([...ids].sort());
      expect(await client.exists(`${prefix}sessions`)).toBe(0);
      const shards = await Promise.all(
        Array.from({ length: 16 }, (_, shard) => client.zrange(`${prefix}sessions:{${shard}}`, "0", "-1")),
      );
      expect(shards.flat().sort()).toEqual([...ids].sort());
      expect(shards.filter((members) => members.length > 0).length).toBeGreaterThan(4); // spread, not one key
      await client.zadd(`${prefix}sessions`, 1, "old-1"); // written by a process not yet upgraded
      expect((await store.prune({ olderThan: Date.now() - 60_000 })).sort()).toEqual([]);
      expect((await store.prune({ olderThan: Date.now() + 1 })).sort()).toEqual([...ids].sort());
      expect(await store.entries()).toEqual([]);
      expect(await client.exists(`${prefix}sessions`)).toBe(0);
    });

    it("with waitForReplicas, fails a write no replica acknowledged in time, which a retry never duplicates", async () => {
      const client = newClient();
      const store = new RedisMemoryStore({
        client,
        prefix: `${runPrefix}wait:`,
        waitForReplicas: { replicas: 1, timeoutMs: 20 },
      }); // this Redis has no replica
      const turn: AgentMessage[] = [{ id: "1", role: "user", content: "x" }];
      for (const write of [
        () => store.appendMessages("s", turn),
        () => store.setFact("s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 }),
      ]) {
        const error = await write().catch((caught: unknown) => caught);
        expect(StoreError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/only 0 of 1 replica\(s\) acknowledged the write within 20 ms/);
      }
      await store.appendMessages("s", turn).catch(() => {});
      expect(await store.getMessages("s")).toEqual(turn); // stored on the master once
      for (const waitForReplicas of [
        { replicas: 0, timeoutMs: 10 },
        { replicas: 1, timeoutMs: 0 },
        { replicas: 1.5, timeoutMs: 10 },
        3,
      ]) {
        expect(() => new RedisMemoryStore({ client, waitForReplicas } as never)).toThrow(
          expect.objectContaining({ argument: "waitForReplicas" }),
        );
      }
    });

    it("sets the ttl on every key of a session and refreshes it on every write", async () => {
      const client = newClient();
      const prefix = `${runPrefix}ttl-check:`;
      const store = new RedisMemoryStore({ client, prefix, ttlMs: 60_000 });
      const sessionKeys = ["messages", "ids", "meta", "summaries", "summary-ids"].map(
        (suffix) => `${prefix}{s}:${suffix}`,
      );
      const factsKey = `${prefix}{s}:facts`;
      const summary = (id: string) => ({
        id,
        content: "summary",
        fromMessageId: "1",
        toMessageId: "1",
        messageCount: 1,
        model: "mock/mock",
        createdAt: 1,
      });
      await store.appendMessages("s", [{ id: "1", role: "user", content: "x" }]);
      await store.saveSummary("s", summary("sum1"));
      await store.setFact("s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
      const ttls = (keys: string[]) => Promise.all(keys.map((key) => client.pttl(key)));
      for (const ttl of await ttls([...sessionKeys, factsKey])) {
        expect(ttl).toBeGreaterThan(30_000);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
      // Each later write must push the expiry back up: shorten it (as if 58 s had passed), write, read it again.
      const writes: [string[], () => Promise<unknown>][] = [
        [sessionKeys, () => store.appendMessages("s", [{ id: "2", role: "assistant", content: "y" }])],
        [sessionKeys, () => store.updateSession("s", { tags: ["t"] })],
        [sessionKeys, () => store.saveSummary("s", summary("sum2"))],
        [sessionKeys, () => store.setMessages("s", [{ id: "3", role: "user", content: "z" }])],
        [[factsKey], () => store.setFact("s", { key: "k", value: "w", createdAt: 1, updatedAt: 2 })],
      ];
      for (const [keys, write] of writes) {
        for (const key of keys) await client.pexpire(key, 2_000);
        await write();
        for (const ttl of await ttls(keys)) expect(ttl).toBeGreaterThan(30_000);
      }
    });

    it("raises a CorruptStoreError naming the session when its metadata is corrupt (getSession, entries)", async () => {
      const client = newClient();
      const prefix = `${runPrefix}corrupt-meta:`;
      const store = new RedisMemoryStore({ client, prefix });
      await store.updateSession("s", { tags: ["a"] });
      await client.hset(`${prefix}{s}:meta`, "tags", "{oops");
      for (const read of [() => store.getSession("s"), () => store.entries()]) {
        const error = await read().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(
          CorruptStoreError.isInstance(error) && error.sessionId === "s" && error.path === `${prefix}{s}:meta`,
        ).toBe(true);
        expect((error as Error).message).toMatch(/session "s"/);
      }
      await client.hset(`${prefix}{s}:meta`, "tags", '{"not":"an array"}');
      await expect(store.getSession("s")).rejects.toSatisfy(CorruptStoreError.isInstance);
    });

    it("refuses ids with lone surrogates with an InvalidArgumentError, never a URIError", async () => {
      const store = new RedisMemoryStore({ client: newClient(), prefix: `${runPrefix}surrogates:` });
      for (const id of ["x\ud800", "x\udfff", "\udc00x", "a\ud83d"]) {
        await expect(store.appendMessages(id, [{ id: "1", role: "user", content: "x" }])).rejects.toSatisfy(
          InvalidArgumentError.isInstance,
        );
        await expect(store.getMessages(id)).rejects.toSatisfy(InvalidArgumentError.isInstance);
        await expect(store.getFacts(`user:${id}`)).rejects.toSatisfy(InvalidArgumentError.isInstance);
        await expect(store.lockSession(id, { timeoutMs: 0 })).rejects.toSatisfy(InvalidArgumentError.isInstance);
      }
      await store.appendMessages("x\ufffd\ud83d\ude00", [{ id: "1", role: "user", content: "x" }]);
      expect((await store.entries()).map((entry) => entry.sessionId)).toEqual(["x\ufffd\ud83d\ude00"]);
    });

    it("refuses unknown options, naming the right one (keyPrefix is prefix)", () => {
      const client = newClient();
      expect(() => new RedisMemoryStore({ client, keyPrefix: "mine:" } as never)).toThrow(
        /no option "keyPrefix": use "prefix"/,
      );
      expect(() => new RedisMemoryStore({ client, keyPrefix: "mine:" } as never)).toThrow(
        expect.objectContaining({ argument: "keyPrefix" }),
      );
      expect(() => new RedisMemoryStore({ client, tll: 5 } as never)).toThrow(
        /no option "tll". Its options are: client, prefix, ttlMs, lockLeaseMs/,
      );
      expect(() => new RedisMemoryStore({ client, prefix: "ok:", ttlMs: undefined })).not.toThrow();
    });

    it("refuses the old ttl option (it was in ms where Redis users expect seconds): renamed ttlMs, the message says how", () => {
      const client = newClient();
      const refused = (() => {
        try {
          new RedisMemoryStore({ client, ttl: 3600 } as never);
        } catch (error) {
          return error;
        }
      })();
      expect(InvalidArgumentError.isInstance(refused) && refused.argument).toBe("ttl");
      expect((refused as Error).message).toMatch(
        /no option "ttl" any more: it was renamed to ttlMs and is in milliseconds .* ttl: 3600 meant 3\.6 s; for an hour pass ttlMs: 3_600_000\./,
      );
      expect(() => new RedisMemoryStore({ client, ttlMs: 3_600_000 })).not.toThrow();
    });

    it("lists the scopes that hold facts (an index set, never SCAN)", async () => {
      await expectFactScopes(new RedisMemoryStore({ client: newClient(), prefix: `${runPrefix}scopes:` }));
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

    it("stops waiting for a session lock held by another client when the signal aborts", async () => {
      const prefix = `${runPrefix}lock-abort:`;
      const first = new RedisMemoryStore({ client: newClient(), prefix });
      const second = new RedisMemoryStore({ client: newClient(), prefix });
      await expectLockWaitAborts(first, second);
    });

    it("gives back a lock whose take landed but whose answer was lost, retrying until the delete lands (not after the lease)", async () => {
      const prefix = `${runPrefix}lost-take:`;
      const lockKey = `${prefix}{s}:lock`;
      const client = newClient();
      let healed = false;
      let giveBacksTried = 0;
      // The take's SET lands, then its answer is lost (a master dying before it replies); the
      // deletes of the given-back lock fail too until the test heals the "cluster".
      const flaky = new Proxy(client, {
        get(target, property, receiver) {
          if (property === "call")
            return async (...args: (string | number)[]) => {
              const reply = await target.call(String(args[0]), ...args.slice(1));
              if (args[0] === "SET" && args[1] === lockKey) throw new Error("Connection is closed.");
              return reply;
            };
          if (property === "evalsha" || property === "eval")
            return async (...args: (string | number)[]) => {
              if (args[2] === lockKey && args.at(-1) === "0") {
                giveBacksTried++;
                if (!healed) throw new Error("CLUSTERDOWN The cluster is down");
              }
              return (target[property] as (...rest: (string | number)[]) => Promise<unknown>)(...args);
            };
          return Reflect.get(target, property, receiver);
        },
      });
      const store = new RedisMemoryStore({ client: flaky, prefix, lockLeaseMs: 600_000 });
      await expect(store.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(StoreError.isInstance);
      const sleep = () => new Promise((resolve) => setTimeout(resolve, 20));
      while (giveBacksTried < 3) await sleep(); // retried in the background after the run failed
      expect(await client.exists(lockKey)).toBe(1); // every give-back failed so far: the lock is still there
      healed = true;
      while ((await client.exists(lockKey)) === 1) await sleep(); // the lease is 10 minutes: only a retry frees it
      const other = new RedisMemoryStore({ client: newClient(), prefix });
      await (await other.lockSession("s", { timeoutMs: 0 }))();
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
