// Stops across two RedisMemoryStore objects on two Cluster clients of a real local Redis Cluster
// (started by test/helpers/redis-cluster.ts): a PUBLISH reaches the subscriber on whichever node.
import { Cluster } from "ioredis";
import { afterAll, it } from "vitest";
import { startRedisCluster } from "../../../test/helpers/redis-cluster";
import { describeStopRun } from "../../../test/helpers/describe-stop-run";
import { uniqueName } from "../../../test/helpers/services";
import { RedisMemoryStore } from "./redis-memory-store";

const cluster = await startRedisCluster();
const runPrefix = `${uniqueName("agentcore-cluster-stop")}:`;
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

if (cluster) {
  const running = newClient();
  const stopping = newClient();
  let counter = 0;
  describeStopRun("RedisMemoryStore on a Redis Cluster", () => {
    const prefix = `${runPrefix}${counter++}:`;
    return {
      running: new RedisMemoryStore({ client: running, prefix }),
      stopping: new RedisMemoryStore({ client: stopping, prefix }),
    };
  });
} else {
  it.skip("needs redis-server to start a local cluster", () => {});
}
