// Stops across two UpstashRedisMemoryStore objects, each with its own @upstash/redis client, through
// the loopback REST bridge to the local Redis (a polled stop key: no pub/sub over HTTP).
import { Redis } from "@upstash/redis";
import { afterAll, it } from "vitest";
import { serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "../../../test/helpers/upstash-rest-bridge";
import { describeStopRun } from "../../../test/helpers/describe-stop-run";
import { UpstashRedisMemoryStore } from "./upstash-redis-memory-store";

const available = await serviceAvailable("redis");
const runPrefix = `${uniqueName("agentcore-upstash-stop")}:`;
const bridge: UpstashRestBridge | undefined = available ? await startUpstashRestBridge() : undefined;

afterAll(async () => {
  await bridge?.close(); // deletes every key written through it
});

function upstash(): Redis {
  return new Redis({ url: bridge!.url, token: bridge!.token, retry: false, enableTelemetry: false });
}

if (available && bridge) {
  const running = upstash();
  const stopping = upstash();
  let counter = 0;
  describeStopRun("UpstashRedisMemoryStore", () => {
    const prefix = `${runPrefix}${counter++}:`;
    return {
      running: new UpstashRedisMemoryStore({ client: running, prefix }),
      stopping: new UpstashRedisMemoryStore({ client: stopping, prefix }),
    };
  });
} else {
  it.skip("needs the local Redis", () => {});
}
