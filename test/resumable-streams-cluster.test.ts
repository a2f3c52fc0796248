// Resumable streams on a real local Redis Cluster (3 masters, 3 replicas, test/helpers/redis-cluster.ts):
// a stream's keys share the session's hash tag (one slot, so each write is one script), and a
// reconnect through a second cluster client replays and follows the answer to the stored message.
import { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { resumeStream } from "../src/streaming/resume-stream";
import { convertToUIMessages } from "../src/ui/convert-to-ui-messages";
import { startRedisCluster } from "./helpers/redis-cluster";
import { ANSWER, foldResponse, startHeldTurn } from "./helpers/resumable-turns";
import { uniqueName } from "./helpers/services";

const cluster = await startRedisCluster();
const prefix = `${uniqueName("agentcore-resumable-cluster")}:`;
const clients: Cluster[] = [];
const newClient = () => {
  const client = new Cluster(cluster!.nodes, { redisOptions: { maxRetriesPerRequest: 1 } });
  clients.push(client);
  return client;
};

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  await cluster?.stop();
}, 30_000);

describe.skipIf(!cluster)("resumable streams on a Redis Cluster", () => {
  it("keeps a stream's keys in its session's slot and resumes through another client", async () => {
    const first = new RedisMemoryStore({ client: newClient(), prefix });
    const client = newClient();
    const second = new RedisMemoryStore({ client, prefix });
    const held = await startHeldTurn(first, "cluster session");
    const resumed = foldResponse(await resumeStream({ sessionId: "cluster session", memoryStore: second }));
    held.open();
    const { message } = await resumed;
    await held.result.response;

    const stored = convertToUIMessages(await second.getMessages("cluster session"));
    expect(message).toEqual(stored.at(-1));
    expect(message?.parts).toContainEqual(expect.objectContaining({ type: "text", text: ANSWER }));
    const tag = `${prefix}{${encodeURIComponent("cluster session")}}`;
    const streamKeys = [`${tag}:stream`, `${tag}:stream:x`, `${tag}:stream:x:state`, `${tag}:messages`];
    const slots = await Promise.all(streamKeys.map((key) => client.call("CLUSTER", "KEYSLOT", key)));
    expect(new Set(slots).size).toBe(1);
  });
});
