// The folded turn of RedisMemoryStore (lock + tail read in one script, last append + release in one), against the real server.
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { deleteKeysWithPrefix, redisUrl, serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { Agent } from "../../agent/agent";
import { SessionBusyError } from "../../errors/session-busy-error";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { expectLateWriterFenced } from "../__fixtures__/expect-late-writer-fenced";
import type { AgentMessage } from "../../messages/agent-message";
import { builtInPartsOf } from "../built-in-backend";
import { RedisMemoryStore } from "./redis-memory-store";

const available = await serviceAvailable("redis");
const runPrefix = `${uniqueName("agentcore-fold")}:`;

describe.skipIf(!available)("RedisMemoryStore folded turn", () => {
  const client = available ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : (undefined as unknown as Redis);
  afterAll(async () => {
    await deleteKeysWithPrefix(client, runPrefix);
    await client.quit();
  });
  const message = (id: string): AgentMessage => ({ id, role: "user", content: `text of ${id}` });
  const newStore = (name: string, options: { ttlMs?: number; lockLeaseMs?: number } = {}) =>
    new RedisMemoryStore({ client, prefix: `${runPrefix}${name}:`, ...options });

  it("reads the tail with the lock, releases it with the last append, and the release function then does nothing", async () => {
    const first = newStore("basic");
    const second = newStore("basic");
    const folding = builtInPartsOf(first)!.folding!;
    expect(folding).toBeDefined();
    await first.appendMessages("s", ["1", "2", "3", "4"].map(message));
    const { release, tail } = await folding.lockSessionReadingTail("s", { timeoutMs: 0 }, 3);
    expect(tail).toEqual(await first.getMessageTail("s", 3));
    await expect(second.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    // A take that finds the lock held reads nothing and is refused.
    await expect(builtInPartsOf(second)!.folding!.lockSessionReadingTail("s", { timeoutMs: 0 }, 3)).rejects.toSatisfy(
      SessionBusyError.isInstance,
    );
    expect(await folding.appendMessagesAndUnlock("s", [message("5"), message("5"), message("4")])).toBe(true);
    const releaseSecond = await second.lockSession("s", { timeoutMs: 0 });
    await release(); // must not free the second holder's lock
    await expect(first.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    await releaseSecond();
    expect((await first.getMessages("s")).map((stored) => stored.id)).toEqual(["1", "2", "3", "4", "5"]);
    // The session index knows the session, as after any append.
    expect((await first.entries()).map((entry) => [entry.sessionId, entry.messageCount])).toEqual([["s", 5]]);
  });

  it("reads no message for a limit of 0, the whole list for Infinity, an empty tail for a session never stored", async () => {
    const store = newStore("limits");
    const folding = builtInPartsOf(store)!.folding!;
    await store.appendMessages("s", ["1", "2", "3"].map(message));
    for (const [limit, ids] of [
      [0, []],
      [Infinity, ["1", "2", "3"]],
      [2 ** 60, ["1", "2", "3"]],
      [2.7, ["2", "3"]],
    ] as const) {
      const { release, tail } = await folding.lockSessionReadingTail("s", { timeoutMs: 0 }, limit);
      expect(tail?.total).toBe(3);
      expect(tail?.messages.map((stored) => stored.id)).toEqual(ids);
      await release();
    }
    const empty = await folding.lockSessionReadingTail("new", { timeoutMs: 0 }, 3);
    expect(empty.tail).toEqual({ messages: [], total: 0 });
    await empty.release();
  });

  it("refuses the folded append-and-release of a holder whose lease ran out and was taken over, and keeps the new holder's lock", async () => {
    const holder = newStore("takeover", { lockLeaseMs: 150 });
    const next = newStore("takeover");
    await holder.appendMessages("s", [message("1")]);
    const { release } = await builtInPartsOf(holder)!.folding!.lockSessionReadingTail("s", { timeoutMs: 0 }, 5);
    // The holder stalls; the next run waits until the 150 ms lease has run out (renewals come every second).
    const taken = await builtInPartsOf(next)!.folding!.lockSessionReadingTail("s", { timeoutMs: 20_000 }, 5);
    expect(taken.tail?.messages.map((stored) => stored.id)).toEqual(["1"]);
    await expect(builtInPartsOf(holder)!.folding!.appendMessagesAndUnlock("s", [message("2")])).rejects.toSatisfy(
      SessionLockLostError.isInstance,
    );
    await release();
    await expect(holder.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    expect(await builtInPartsOf(next)!.folding!.appendMessagesAndUnlock("s", [message("3")])).toBe(true);
    await taken.release();
    expect((await next.getMessages("s")).map((stored) => stored.id)).toEqual(["1", "3"]);
    await (await next.lockSession("s", { timeoutMs: 0 }))();
  });

  it("fences every write of a late holder: append, setMessages, append-and-release, context report (SessionLockLostError, nothing written)", async () => {
    await expectLateWriterFenced(newStore("fence", { lockLeaseMs: 200 }), newStore("fence"));
  });

  it("an agent run that stalled past its lease fails with SessionLockLostError; the history holds the next run's turn, never the late answer", async () => {
    let resume: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (resume = resolve));
    const slowModel = new MockLanguageModel({
      responses: async () => {
        await stalled; // a GC pause, a SIGSTOP: the lease runs out meanwhile
        return { text: "late answer of A" };
      },
    });
    const first = new Agent({ model: slowModel, memoryStore: newStore("agent", { lockLeaseMs: 200 }), sessionId: "s" });
    const second = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "answer of B" }] }),
      memoryStore: newStore("agent"),
      sessionId: "s",
    });
    const runOfA = first.run("question of A").then(
      () => undefined,
      (error: unknown) => error,
    );
    while (slowModel.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await second.run("question of B"); // waits for A's lease to run out, then takes the session
    resume();
    const error = await runOfA;
    expect(SessionLockLostError.isInstance(error) && error.sessionId).toBe("s");
    const history = await newStore("agent").getMessages("s");
    // A's question was stored while A held the lock; its answer, written after the takeover, is not.
    expect(history.map((stored) => [stored.role, stored.content])).toEqual([
      ["user", "question of A"],
      ["user", "question of B"],
      ["assistant", "answer of B"],
    ]);
  });

  it("an agent turn is 3 round trips on the session's slot: lock and tail, the user message, the answer and the release", async () => {
    const sent: string[] = [];
    const counted = new Set(["evalsha", "eval", "call", "multi", "pipeline", "set", "get", "lrange", "hgetall", "del"]);
    const spy = new Proxy(client, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (typeof property === "string" && counted.has(property))
            sent.push(property === "call" ? String(args[0]) : property);
          return value.apply(target, args);
        };
      },
    });
    const store = new RedisMemoryStore({ client: spy, prefix: `${runPrefix}trips:` });
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "a" }, { text: "b" }] }),
      memoryStore: store,
      memory: "sliding_window",
      sessionId: "s",
    });
    await agent.run("one");
    sent.length = 0;
    await agent.run("two");
    // Each append's index ZADD goes beside its script (another slot), never waited for before it.
    expect(sent).toEqual(["evalsha", "ZADD", "evalsha", "ZADD", "evalsha"]);
  });

  it("keeps the ttl on the session's keys, never on the lock, and appends without a lock held", async () => {
    const store = newStore("ttl", { ttlMs: 60_000 });
    const folding = builtInPartsOf(store)!.folding!;
    expect(await folding.appendMessagesAndUnlock("free", [message("1")])).toBe(false); // no lock held: a plain append
    const { release } = await folding.lockSessionReadingTail("s", { timeoutMs: 0 }, 5);
    expect(await folding.appendMessagesAndUnlock("s", [message("1")])).toBe(true);
    const base = `${runPrefix}ttl:{s}`;
    for (const suffix of ["messages", "ids", "meta"])
      expect(await client.pttl(`${base}:${suffix}`)).toBeGreaterThan(50_000);
    expect(await client.exists(`${base}:lock`)).toBe(0);
    await release();
    expect((await store.getMessages("free")).map((stored) => stored.id)).toEqual(["1"]);
  });
});
