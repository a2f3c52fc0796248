// UpstashRedisMemoryStore with the real @upstash/redis client, through a loopback server that
// speaks Upstash's REST protocol to the real local Redis (test/helpers/upstash-rest-bridge.ts).
import { Redis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { deleteKeysWithPrefix, redisUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "../../../test/helpers/upstash-rest-bridge";
import { Agent } from "../../agent/agent";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionBusyError } from "../../errors/session-busy-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import { MockLanguageModel, type MockResponse } from "../../testing/mock-language-model";
import { testMemoryStore } from "../../testing/test-memory-store";
import { expectFactScopes } from "../__fixtures__/expect-fact-scopes";
import { expectLockWaitAborts } from "../__fixtures__/expect-lock-wait-aborts";
import { describeRedisThreads } from "../__fixtures__/expect-redis-threads";
import { RedisMemoryStore } from "../redis/redis-memory-store";
import { UpstashRedisMemoryStore } from "./upstash-redis-memory-store";

const available = await serviceAvailable("redis");
const runPrefix = `${uniqueName("agentcore-upstash-test")}:`;
const bridge: UpstashRestBridge | undefined = available ? await startUpstashRestBridge() : undefined;
const ioredis: IORedis[] = [];

afterAll(async () => {
  await bridge?.close(); // deletes every key written through it
  // and the keys of users that scripts reach without naming them (the user index: redis-scripts.ts)
  if (available) await deleteKeysWithPrefix(rawRedis(), runPrefix);
  await Promise.all(ioredis.map((client) => client.quit().catch(() => {})));
});

/** An ioredis client on the bridge's database, closed after the run. */
function rawRedis(): IORedis {
  const client = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  ioredis.push(client);
  return client;
}

/** An @upstash/redis client on the bridge (no retries, so failures surface at once). */
function upstash(options: { automaticDeserialization?: boolean; token?: string; url?: string } = {}): Redis {
  return new Redis({
    url: options.url ?? bridge!.url,
    token: options.token ?? bridge!.token,
    retry: false,
    enableTelemetry: false,
    ...options,
  });
}

const message = (id: string, content = id): AgentMessage => ({ id, role: "user", content });

if (available && bridge) {
  let counter = 0;
  const shared = upstash();
  const raw = upstash({ automaticDeserialization: false });
  testMemoryStore(
    "UpstashRedisMemoryStore",
    () => new UpstashRedisMemoryStore({ client: shared, prefix: `${runPrefix}${counter++}:` }),
    { requireCapabilities: "all" },
  );
  testMemoryStore(
    "UpstashRedisMemoryStore (automaticDeserialization: false, ttlMs)",
    () => new UpstashRedisMemoryStore({ client: raw, prefix: `${runPrefix}raw${counter++}:`, ttlMs: 60_000 }),
    {
      requireCapabilities: "all",
    },
  );

  describe("UpstashRedisMemoryStore threads", () => {
    describeRedisThreads((prefix) => new UpstashRedisMemoryStore({ client: shared, prefix }), rawRedis(), runPrefix);
  });

  describe("UpstashRedisMemoryStore specifics", () => {
    it("goes through Upstash's REST protocol: a write is one /pipeline request (index, then the script by EVALSHA)", async () => {
      const store = new UpstashRedisMemoryStore({
        client: upstash({ automaticDeserialization: false }),
        prefix: `${runPrefix}wire:`,
      });
      await store.appendMessages("s", [message("1")]); // the first may send EVAL (a fresh server has no scripts)
      const before = bridge.requests.length;
      await store.appendMessages("s", [message("2")]);
      const sent = bridge.requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.path).toBe("/pipeline");
      const [index, script] = sent[0]!.body as string[][];
      expect(index!.slice(0, 1)).toEqual(["zadd"]);
      expect(index![1]).toMatch(new RegExp(`^${runPrefix}wire:sessions:\\{\\d+\\}$`));
      expect(script!.slice(0, 1)).toEqual(["evalsha"]);
      expect(script![1]).toMatch(/^[0-9a-f]{40}$/);
    });

    it("folds an agent turn into 3 HTTP requests: lock and tail, the user message, the answer and the release", async () => {
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix: `${runPrefix}trips:` });
      const agent = new Agent({
        model: new MockLanguageModel({ responses: [{ text: "a" }, { text: "b" }] }),
        memoryStore: store,
        memory: "sliding_window",
        sessionId: "s",
      });
      await agent.run("one");
      const before = bridge.requests.length;
      await agent.run("two");
      const sent = bridge.requests
        .slice(before)
        .map((request) => (request.body as string[][]).map((command) => command[0]));
      expect(sent).toEqual([["evalsha"], ["zadd", "evalsha"], ["zadd", "evalsha"]]);
      expect((await store.getMessages("s")).map((stored) => stored.content)).toEqual(["one", "a", "two", "b"]);
      await (await store.lockSession("s", { timeoutMs: 0 }))(); // released by the last append
    });

    it("sends a script again with EVAL when the server does not have it (NOSCRIPT), for writes and reads", async () => {
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix: `${runPrefix}noscript:` });
      bridge.forgetScripts(true);
      try {
        const before = bridge.requests.length;
        await store.appendMessages("s", [message("1")]);
        await store.setFact("session:s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
        expect(await store.getMessageTail("s", 5)).toEqual({ messages: [message("1")], total: 1 });
        expect((await store.getFacts("session:s")).map((fact) => fact.value)).toEqual(["v"]);
        const commands = bridge.requests
          .slice(before)
          .flatMap((request) => (request.path === "/" ? [request.body] : (request.body as unknown[]))) as string[][];
        expect(commands.filter((command) => command[0] === "eval").length).toBeGreaterThanOrEqual(4);
      } finally {
        bridge.forgetScripts(false);
      }
      const release = await store.lockSession("s", { timeoutMs: 0 });
      await release();
    });

    it("shares RedisMemoryStore's layout: what one writes the other reads (same database over TCP and REST)", async () => {
      const prefix = `${runPrefix}interop:`;
      const client = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
      ioredis.push(client);
      const overRest = new UpstashRedisMemoryStore({ client: upstash(), prefix });
      const overTcp = new RedisMemoryStore({ client, prefix });
      await overRest.appendMessages("a}b:{c", [message("1"), { id: "2", role: "assistant", content: "hi" }]);
      await overTcp.appendMessages("a}b:{c", [message("2", "duplicate id: skipped"), message("3")]);
      await overRest.updateSession("a}b:{c", { agentName: "helper", tags: ["t"] });
      await overTcp.setFact("user:42", { key: "k", value: "v", createdAt: 1, updatedAt: 2 });
      await overRest.saveSummary("a}b:{c", {
        id: "sum",
        content: "s",
        fromMessageId: "1",
        toMessageId: "2",
        messageCount: 2,
        model: "mock/mock",
        createdAt: 3,
      });
      expect(await overTcp.getMessages("a}b:{c")).toEqual(await overRest.getMessages("a}b:{c"));
      expect((await overRest.getMessages("a}b:{c")).map((stored) => stored.id)).toEqual(["1", "2", "3"]);
      expect(await overRest.getFacts("user:42")).toEqual(await overTcp.getFacts("user:42"));
      expect(await overTcp.getSummaries("a}b:{c")).toEqual(await overRest.getSummaries("a}b:{c"));
      expect(await overRest.getSession("a}b:{c")).toEqual(await overTcp.getSession("a}b:{c"));
      expect(await overRest.entries()).toEqual(await overTcp.entries());
      expect(await overRest.factScopes()).toEqual(await overTcp.factScopes());
      expect(
        await client.exists(
          `${prefix}{a%7Db%3A%7Bc}:messages`,
          `${prefix}{a%7Db%3A%7Bc}:meta`,
          `${prefix}{user%3A42}:facts`,
        ),
      ).toBe(3);
      // A lock taken over one is held against the other.
      const release = await overTcp.lockSession("a}b:{c", { timeoutMs: 0 });
      await expect(overRest.lockSession("a}b:{c", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
      await release();
      await (await overRest.lockSession("a}b:{c", { timeoutMs: 0 }))();
    });

    it.each([true, false])(
      "keeps ids, agent names and tags that look like JSON exactly (automaticDeserialization %s)",
      async (automaticDeserialization) => {
        const store = new UpstashRedisMemoryStore({
          client: upstash({ automaticDeserialization }),
          prefix: `${runPrefix}json-like-${automaticDeserialization}:`,
        });
        const ids = ["123", "1e3", '{"a": 1}', '"quoted"', "null", "true", "[1, 2]", "OK", "é ✓ 😀"];
        for (const id of ids) {
          await store.appendMessages(id, [message("1", id)]);
          await store.updateSession(id, { agentName: id, tags: [id] });
        }
        const entries = await store.entries();
        expect(entries.map((entry) => entry.sessionId).sort()).toEqual([...ids].sort());
        for (const entry of entries)
          expect(entry).toMatchObject({ agentName: entry.sessionId, tags: [entry.sessionId], messageCount: 1 });
        for (const id of ids) expect(await store.getMessages(id)).toEqual([message("1", id)]);
        await store.setFact(`user:${ids[2]}`, { key: "42", value: "007", createdAt: 1, updatedAt: 1 });
        expect(await store.getFacts(`user:${ids[2]}`)).toEqual([
          { key: "42", value: "007", createdAt: 1, updatedAt: 1 },
        ]);
        expect(await store.factScopes()).toEqual([`user:${ids[2]}`]);
      },
    );

    it("locks a session across clients; a second locker waits or is refused; an abort stops the wait", async () => {
      const prefix = `${runPrefix}lock:`;
      const first = new UpstashRedisMemoryStore({ client: upstash(), prefix });
      const second = new UpstashRedisMemoryStore({ client: upstash({ automaticDeserialization: false }), prefix });
      const release = await first.lockSession("s", { timeoutMs: 0 });
      await expect(second.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
      await expect(second.lockSession("s", { timeoutMs: 50 })).rejects.toSatisfy(SessionBusyError.isInstance);
      const waiting = second.lockSession("s", { timeoutMs: 5_000 });
      await release();
      await (await waiting)();
      await expectLockWaitAborts(first, second);
    });

    it("renews a held lock before its lease ends, and a release never frees a lock taken over by another", async () => {
      const prefix = `${runPrefix}lease:`;
      const lockKey = `${prefix}{s}:lock`;
      const client = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
      ioredis.push(client);
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix, lockLeaseMs: 1_500 });
      const release = await store.lockSession("s", { timeoutMs: 0 });
      await new Promise((resolve) => setTimeout(resolve, 2_200)); // past the first lease: renewed at 1 s
      expect(await client.pttl(lockKey)).toBeGreaterThan(0);
      await client.set(lockKey, "someone else", "PX", 10_000); // its lease ran out and another took it
      await release();
      expect(await client.get(lockKey)).toBe("someone else");
      await client.del(lockKey);
    });

    it("sets the ttl on every key of a session and refreshes it on every write", async () => {
      const client = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
      ioredis.push(client);
      const prefix = `${runPrefix}ttl-check:`;
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix, ttlMs: 60_000 });
      const keys = ["messages", "ids", "meta"].map((suffix) => `${prefix}{s}:${suffix}`);
      await store.appendMessages("s", [message("1")]);
      await store.setFact("s", { key: "k", value: "v", createdAt: 1, updatedAt: 1 });
      for (const key of [...keys, `${prefix}{s}:facts`]) expect(await client.pttl(key)).toBeGreaterThan(30_000);
      for (const key of keys) await client.pexpire(key, 2_000);
      await store.appendMessages("s", [message("2")]);
      for (const key of keys) expect(await client.pttl(key)).toBeGreaterThan(30_000);
    });

    it("raises a StoreError naming the operation and the session on HTTP failures, and says to check the token on a 401", async () => {
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix: `${runPrefix}http:` });
      await store.appendMessages("s", [message("1", "x".repeat(10_000))]);
      bridge.failWith(503);
      try {
        for (const [operation, attempt] of [
          ["getMessageTail", () => store.getMessageTail("s", 5)],
          ["appendMessages", () => store.appendMessages("s", [message("2", "y".repeat(10_000))])],
          ["lockSession", () => store.lockSession("s", { timeoutMs: 0 })],
        ] as const) {
          const error = await attempt().catch((caught: unknown) => caught);
          expect(StoreError.isInstance(error)).toBe(true);
          expect(error).toMatchObject({ store: "UpstashRedisMemoryStore", operation, sessionId: "s" });
          expect((error as Error).message).toMatch(
            new RegExp(`Upstash Redis failed during ${operation} of session "s": bridge told to fail with 503`),
          );
          expect((error as Error).message.length).toBeLessThan(300); // not the command and its messages
        }
      } finally {
        bridge.failWith(undefined);
      }
      expect((await store.getMessages("s")).map((stored) => stored.id)).toEqual(["1"]);

      const wrongToken = new UpstashRedisMemoryStore({
        client: upstash({ token: "wrong" }),
        prefix: `${runPrefix}http:`,
      });
      const refused = await wrongToken.getMessages("s").catch((caught: unknown) => caught);
      expect(StoreError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toMatch(/Unauthorized\. Check the REST token/);

      const unreachable = new UpstashRedisMemoryStore({ client: upstash({ url: "http://127.0.0.1:1" }) });
      const down = await unreachable.getFacts("user:u").catch((caught: unknown) => caught);
      expect(StoreError.isInstance(down)).toBe(true);
      expect(down).toMatchObject({ operation: "getFacts", sessionId: "user:u" });
      expect((down as Error).message).toMatch(/fetch failed/);
    });

    it("raises a StoreError naming the record when stored JSON is bad, and a CorruptStoreError for bad metadata", async () => {
      const client = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
      ioredis.push(client);
      const prefix = `${runPrefix}bad:`;
      const good = (index: number) => JSON.stringify(message(String(index)));
      await client.rpush(`${prefix}{s}:messages`, good(0), good(1), "{not json", good(3));
      bridge.touchedKeys.add(`${prefix}{s}:messages`);
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix });
      await expect(store.getMessages("s")).rejects.toThrow(/message 2 of session "s"/);
      expect(await store.getMessageTail("s", 1)).toEqual({ messages: [message("3")], total: 4 });
      await store.updateSession("t", { tags: ["a"] });
      await client.hset(`${prefix}{t}:meta`, "tags", "{oops");
      await expect(store.getSession("t")).rejects.toSatisfy(CorruptStoreError.isInstance);
    });

    it("refuses a missing client, an ioredis client, bad ids and unknown options with InvalidArgumentErrors", async () => {
      const client = new IORedis(redisUrl, { lazyConnect: true });
      ioredis.push(client);
      expect(() => new UpstashRedisMemoryStore(undefined as never)).toThrow(
        /needs \{ client \}: an @upstash\/redis client/,
      );
      expect(() => new UpstashRedisMemoryStore({ client: client as never })).toThrow(
        /ioredis client: use RedisMemoryStore/,
      );
      expect(() => new UpstashRedisMemoryStore({ client: upstash(), url: "https://x" } as never)).toThrow(
        /no option "url": use "client"/,
      );
      expect(() => new UpstashRedisMemoryStore({ client: upstash(), prefix: "a{b" })).toThrow(
        expect.objectContaining({ argument: "prefix" }),
      );
      expect(() => new UpstashRedisMemoryStore({ client: upstash(), ttlMs: -1 })).toThrow(
        expect.objectContaining({ argument: "ttlMs" }),
      );
      expect(() => new UpstashRedisMemoryStore({ client: upstash(), ttl: 3600 } as never)).toThrow(
        /renamed to ttlMs and is in milliseconds .* ttl: 3600 meant 3\.6 s; for an hour pass ttlMs: 3_600_000/,
      );
      expect(() => new UpstashRedisMemoryStore({ client: upstash(), ttl: 3600 } as never)).toThrow(
        expect.objectContaining({ argument: "ttl" }),
      );
      const store = new UpstashRedisMemoryStore({ client: upstash(), prefix: `${runPrefix}ids:` });
      for (const id of ["", "x\ud800"]) {
        await expect(store.appendMessages(id, [message("1")])).rejects.toSatisfy(InvalidArgumentError.isInstance);
        await expect(store.getMessages(id)).rejects.toSatisfy(InvalidArgumentError.isInstance);
      }
      await expect(store.getMessageTail("s", -1)).rejects.toSatisfy(InvalidArgumentError.isInstance);
    });

    it("lists the scopes that hold facts (an index set, never SCAN)", async () => {
      await expectFactScopes(new UpstashRedisMemoryStore({ client: upstash(), prefix: `${runPrefix}scopes:` }));
    });

    describe("memory tools through an Agent", () => {
      const call = (name: string, args: object): MockResponse => ({
        toolCalls: [{ id: `${name}-${Math.random().toString(36).slice(2, 8)}`, name, arguments: args }],
      });

      it("session scope: remembers, shows in the next prompt, recalls and forgets", async () => {
        const store = new UpstashRedisMemoryStore({ client: upstash(), prefix: `${runPrefix}tools-session:` });
        const model = new MockLanguageModel({
          responses: [
            call("remember_fact", { key: "Language", value: "TypeScript" }),
            { text: "Noted." },
            call("recall_fact", { key: "language" }),
            { text: "TS" },
            call("forget_fact", { key: "language" }),
            { text: "Forgot." },
            { text: "Hi" },
          ],
        });
        const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, sessionId: "s1" });
        await agent.run("I write TypeScript.");
        expect(await store.getFacts("session:s1")).toEqual([
          expect.objectContaining({ key: "language", value: "TypeScript" }),
        ]);
        await agent.run("What do I write?");
        expect(model.calls[2]!.system).toContain('"language": "TypeScript"');
        expect(model.calls[3]!.messages.at(-1)!.content).toContain("TypeScript");
        await agent.run("Forget it.");
        expect(await store.getFacts("session:s1")).toEqual([]);
        await agent.run("Hello");
        expect(model.calls[6]!.system ?? "").not.toContain("TypeScript");
        expect(
          (await store.getMessages("s1")).filter((stored) => stored.role === "user").map((stored) => stored.content),
        ).toEqual(["I write TypeScript.", "What do I write?", "Forget it.", "Hello"]);
      });

      it("user scope: a user's facts follow the user across sessions, never another user or a session named like them", async () => {
        const store = new UpstashRedisMemoryStore({
          client: upstash({ automaticDeserialization: false }),
          prefix: `${runPrefix}tools-user:`,
        });
        const model = new MockLanguageModel({
          responses: [
            call("remember_fact", { key: "name", value: "Ada" }),
            { text: "Hi Ada" },
            { text: "a" },
            { text: "b" },
            { text: "c" },
          ],
        });
        const agent = new Agent({ model, memoryStore: store, enableMemoryTools: true, factScope: "user" });
        await agent.run({ input: "I am Ada", sessionId: "thread-1", userId: "ada" });
        await agent.run({ input: "new thread", sessionId: "thread-2", userId: "ada" });
        expect(model.calls[2]!.system).toContain('"name": "Ada"');
        await agent.run({ input: "I am Bob", sessionId: "thread-3", userId: "bob" });
        expect(model.calls[3]!.system ?? "").not.toContain("Ada");
        await new Agent({ model, memoryStore: store, enableMemoryTools: true }).run({
          input: "who am I?",
          sessionId: "user:ada",
        });
        expect(model.calls[4]!.system ?? "").not.toContain("Ada");
        expect(await store.factScopes()).toEqual(["user:ada"]);
      });
    });
  });
} else {
  describe.skip("UpstashRedisMemoryStore (Redis not reachable)", () => {
    it("skipped", () => {});
  });
}
