// Stops across two RedisMemoryStore objects on two clients of the local Redis (pub/sub).
import { expect, it } from "vitest";
import { serviceAvailable } from "../../../test/helpers/services";
import { redisTestRun } from "../../../test/helpers/redis-test-run";
import { Agent } from "../../agent/agent";
import { GatedModel } from "../../../test/helpers/gated-model";
import { stopRun } from "../../agent/stop-run";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { describeStopRun } from "../../../test/helpers/describe-stop-run";
import { RedisMemoryStore } from "./redis-memory-store";

const available = await serviceAvailable("redis");
const { runPrefix, newClient } = redisTestRun(available);

if (available) {
  const running = newClient();
  const stopping = newClient();
  let counter = 0;
  describeStopRun("RedisMemoryStore", () => {
    const prefix = `${runPrefix}${counter++}:`;
    return {
      running: new RedisMemoryStore({ client: running, prefix }),
      stopping: new RedisMemoryStore({ client: stopping, prefix }),
    };
  });

  it("listens on one subscriber connection per store, kept for the store's next run", async () => {
    const prefix = `${runPrefix}sub:`;
    const store = new RedisMemoryStore({ client: running, prefix });
    const subscribers = async () => ((await stopping.pubsub("NUMSUB", `${prefix}stop`)) as [string, number])[1];
    expect(await subscribers()).toBe(0);
    for (const sessionId of ["s-sub-1", "s-sub-2"]) {
      const model = new GatedModel([{ text: "Hello there, world." }], { open: 1 });
      const stream = new Agent({ model, memoryStore: store }).stream({ input: "Hi", sessionId });
      await model.atGate();
      expect(await subscribers()).toBe(1);
      await stopRun({ sessionId, memoryStore: new RedisMemoryStore({ client: stopping, prefix }) });
      expect((await stream.response).finishReason).toBe("stopped");
    }
    // Still one: the second run reused the first run's connection.
    expect(await subscribers()).toBe(1);
  });

  it("a stopped run that lost its session lock writes nothing (fenced)", async () => {
    const prefix = `${runPrefix}fenced:`;
    const stale = new RedisMemoryStore({ client: running, prefix });
    const next = new RedisMemoryStore({ client: stopping, prefix });
    const model = new GatedModel([{ text: "Hello there, world." }], { open: 1 });
    const stream = new Agent({ model, memoryStore: stale }).stream({ input: "Hi", sessionId: "s-fenced" });
    await model.atGate();
    // Another instance takes the session over (the stale holder's lease gone).
    await stopping.del(`${prefix}{s-fenced}:lock`);
    const release = await next.lockSession("s-fenced", { timeoutMs: 0 });
    await stopRun({ sessionId: "s-fenced", memoryStore: next });
    await expect(stream.response).rejects.toSatisfy(SessionLockLostError.isInstance);
    expect((await next.getMessages("s-fenced")).map((message) => message.role)).toEqual(["user"]);
    await release();
  });
} else {
  it.skip("needs the local Redis", () => {});
}
