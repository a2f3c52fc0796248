// RedisMemoryStore's getMessageTail against the local Redis: read while other clients append, and the
// errors it raises.
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { redisUrl, serviceAvailable } from "../../../test/helpers/services";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import { RedisMemoryStore } from "./redis-memory-store";
import { redisTestRun } from "../../../test/helpers/redis-test-run";

const available = await serviceAvailable("redis");
const { runPrefix, clients, newClient } = redisTestRun(available);

if (available) {
  describe("RedisMemoryStore specifics", () => {
    describe("getMessageTail", () => {
      const turn = (writer: number, index: number): AgentMessage[] => [
        { id: `w${writer}-u${index}`, role: "user", content: `question ${writer}.${index}` },
        { id: `w${writer}-a${index}`, role: "assistant", content: `answer ${writer}.${index}` },
      ];

      it("read while other clients append, is always the last min(limit, total) of a prefix the appends produced", async () => {
        const prefix = `${runPrefix}tail-race:`;
        const writers = Array.from({ length: 4 }, () => new RedisMemoryStore({ client: newClient(), prefix }));
        const reader = new RedisMemoryStore({ client: newClient(), prefix });
        const observed: { limit: number; messages: AgentMessage[]; total: number }[] = [];
        let writing = true;
        const appends = Promise.all(
          writers.map(async (writer, index) => {
            for (let turnIndex = 0; turnIndex < 25; turnIndex++)
              await writer.appendMessages("s", turn(index, turnIndex));
          }),
        ).finally(() => (writing = false));
        const reads = (async () => {
          for (let round = 0; writing || round < 10; round++) {
            const limit = [0, 1, 3, 7, 50, Infinity][round % 6]!;
            observed.push({ limit, ...(await reader.getMessageTail("s", limit)) });
          }
        })();
        await Promise.all([appends, reads]);
        const all = await reader.getMessages("s");
        expect(all).toHaveLength(200);
        expect(observed.length).toBeGreaterThan(10);
        expect(new Set(observed.map((read) => read.total)).size).toBeGreaterThan(2); // reads did overlap the appends
        for (const { limit, messages, total } of observed) {
          expect(total % 2).toBe(0); // a turn is appended atomically: never half of one
          expect(messages).toHaveLength(Math.min(limit, total));
          expect(messages).toEqual(all.slice(total - messages.length, total));
        }
      });

      it("sends a huge finite limit as a whole-list range, never as 1e+21", async () => {
        const store = new RedisMemoryStore({ client: newClient(), prefix: `${runPrefix}tail-huge:` });
        const messages = [...turn(0, 0), ...turn(0, 1)];
        await store.appendMessages("s", messages);
        for (const limit of [1e21, Number.MAX_VALUE, 2 ** 53, 2 ** 53 + 2]) {
          expect(await store.getMessageTail("s", limit)).toEqual({ messages, total: 4 });
        }
      });

      it("names the session and the record's position in the session when a tail record is corrupt", async () => {
        const client = newClient();
        const prefix = `${runPrefix}tail-bad:`;
        const key = `${prefix}{s}:messages`;
        const good = (index: number) => JSON.stringify({ id: `${index}`, role: "user", content: `${index}` });
        await client.rpush(key, good(0), good(1), good(2), good(3), good(4), "{not json", good(6), good(7));
        const store = new RedisMemoryStore({ client, prefix });
        const error = await store.getMessageTail("s", 4).catch((caught: unknown) => caught);
        expect(StoreError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ store: "RedisMemoryStore", operation: "getMessageTail", sessionId: "s" });
        expect((error as StoreError).message).toMatch(/message 5 of session "s"/);
        // A tail that stops before the bad record reads fine.
        expect((await store.getMessageTail("s", 2)).total).toBe(8);
      });

      it("raises a StoreError naming the operation and the session when the connection fails", async () => {
        const client = new Redis(redisUrl, { maxRetriesPerRequest: 0, retryStrategy: () => null });
        clients.push(client);
        const store = new RedisMemoryStore({ client, prefix: `${runPrefix}tail-down:` });
        await store.appendMessages("s", turn(0, 0));
        client.disconnect();
        const error = await store.getMessageTail("s", 5).catch((caught: unknown) => caught);
        expect(StoreError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ store: "RedisMemoryStore", operation: "getMessageTail", sessionId: "s" });
        expect((error as StoreError).message).toMatch(/Redis failed during getMessageTail of session "s"/);

        const unreachable = new Redis("redis://127.0.0.1:1", {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        unreachable.on("error", () => {}); // the refused connect is expected; ioredis would log it
        clients.push(unreachable);
        const refused = await new RedisMemoryStore({ client: unreachable })
          .getMessageTail("s", 5)
          .catch((caught: unknown) => caught);
        expect(StoreError.isInstance(refused)).toBe(true);
        expect(refused).toMatchObject({ operation: "getMessageTail", sessionId: "s" });
      });
    });
  });
} else {
  describe.skip("RedisMemoryStore (Redis not reachable)", () => {
    it("skipped", () => {});
  });
}
