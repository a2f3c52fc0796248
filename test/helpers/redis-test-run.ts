// What the RedisMemoryStore test files share against the local Redis: a key prefix of the file's
// own, clients it makes through `newClient`, and an afterAll that deletes its keys and quits them.
import { Redis } from "ioredis";
import { afterAll } from "vitest";
import { deleteKeysWithPrefix, redisUrl, uniqueName } from "./services";

export function redisTestRun(available: boolean): {
  runPrefix: string;
  clients: Redis[];
  newClient: () => Redis;
} {
  const runPrefix = `${uniqueName("agentcore-test")}:`;
  const clients: Redis[] = [];

  /** Deletes every key this run wrote, by the sessions index and known suffixes (never a glob). */
  async function cleanup(): Promise<void> {
    if (!available) return;
    const client = new Redis(redisUrl);
    await deleteKeysWithPrefix(client, runPrefix);
    await client.quit();
    await Promise.all(clients.map((client) => client.quit().catch(() => {})));
  }

  function newClient(): Redis {
    const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  }

  afterAll(cleanup);
  return { runPrefix, clients, newClient };
}
