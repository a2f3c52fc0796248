// RedisStopSignals' connection lifetime: closed once no run watches (a linger of 0 here; the
// store's is IDLE_LINGER_MS), opened again by the next watch.
import { expect, it } from "vitest";
import { serviceAvailable } from "../../../test/helpers/services";
import { redisTestRun } from "../../../test/helpers/redis-test-run";
import { RedisStopSignals } from "./redis-stop-signals";

const available = await serviceAvailable("redis");
const { runPrefix, newClient } = redisTestRun(available);

it.skipIf(!available)("closes the subscriber when no run watches, and delivers again after", async () => {
  const client = newClient();
  const channel = `${runPrefix}stop`;
  const signals = new RedisStopSignals(client, channel, 0);
  const subscribers = async () => ((await client.pubsub("NUMSUB", channel)) as [string, number])[1];
  for (let round = 0; round < 2; round++) {
    let stopped!: () => void;
    const reached = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    const unwatch = await signals.watchStop("s", () => stopped());
    expect(await subscribers()).toBe(1);
    await signals.requestStop("other-session"); // not this one's
    await signals.requestStop("s");
    await reached;
    unwatch();
    while ((await subscribers()) !== 0) await new Promise((resolve) => setImmediate(resolve));
  }
});
