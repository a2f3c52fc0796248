// The Redis stores' stream log (redis-stream-log.ts) on the real local Redis: a reconnecting client of
// RedisMemoryStore follows by SUBSCRIBE (each write publishes on the stream's state key) and
// unsubscribes when the stream ends; its connection closes with its last subscription.
import { describe, expect, it } from "vitest";
import { foldResponse, startHeldTurn } from "../../../test/helpers/resumable-turns";
import { openStoreServers } from "../../../test/helpers/store-servers";
import { resumeStream } from "../../streaming/resume-stream";
import { RedisMemoryStore } from "./redis-memory-store";

const { redisPrefix, redis } = await openStoreServers("agentcore-redis-stream-log", { postgresConnections: 1 });

describe.skipIf(!redis)("the Redis stream log", () => {
  it("follows by subscription while the answer streams, and unsubscribes at its end", async () => {
    const store = new RedisMemoryStore({ client: redis!, prefix: redisPrefix });
    const held = await startHeldTurn(store, "followed");
    const stateKeys = (await redis!.keys(`${redisPrefix}{followed}:stream:*:state`)) as string[];
    expect(stateKeys).toHaveLength(1);
    const subscribers = async () => Number(((await redis!.call("PUBSUB", "NUMSUB", stateKeys[0]!)) as unknown[])[1]);
    const resumed = foldResponse(await resumeStream({ sessionId: "followed", memoryStore: store }));
    // The follower subscribes once the replay caught up with what was recorded.
    while ((await subscribers()) === 0);
    held.open();
    const { message } = await resumed;
    await held.result.response;
    expect(message?.role).toBe("assistant");
    // Unsubscribed once the stream ended (the close is not awaited by the response: wait for it).
    while ((await subscribers()) !== 0);
  });
});
