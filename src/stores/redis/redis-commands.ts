// How RedisMemoryStore talks to Redis through ioredis: its Lua scripts (redis-scripts.ts) by
// EVALSHA (EVAL when the server does not have them yet, SHA-1 from node:crypto), a write followed
// by a WAIT on the same connection when it must reach replicas, MULTI transactions, and the
// session index's sorted-set commands. UpstashRedisMemoryStore's counterpart is upstash-commands.ts.
import { createHash } from "node:crypto";
import type { ChainableCommander, Cluster, Redis } from "ioredis";
import { execWaitingForReplicas, type RedisReplicaWait } from "./redis-replica-wait";
import type { SortedSetCommands } from "./redis-session-index";

/** A Lua script with its SHA-1 in hex, for EVALSHA. */
export interface RedisScript {
  source: string;
  sha: string;
}

/** A script's source with its SHA-1. */
export function redisScript(source: string): RedisScript {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

/** Runs a store's scripts on its ioredis client, its writes waiting for replicas when `waitForReplicas` asks. */
export class RedisCommands {
  constructor(
    private readonly client: Redis | Cluster,
    private readonly waitForReplicas: RedisReplicaWait | undefined,
  ) {}

  /** Runs a script by EVALSHA, or by EVAL when the server does not have it yet. */
  async eval(body: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.client.evalsha(body.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return await this.client.eval(body.source, keys.length, ...keys, ...args);
    }
  }

  /** `eval`, then with `waitForReplicas`, a `WAIT` on the same connection (one round trip). */
  async evalWrite(body: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    const wait = this.waitForReplicas;
    if (!wait) return await this.eval(body, keys, args);
    try {
      return (
        await execWaitingForReplicas(this.client.pipeline().evalsha(body.sha, keys.length, ...keys, ...args), wait)
      )[0];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return (
        await execWaitingForReplicas(this.client.pipeline().eval(body.source, keys.length, ...keys, ...args), wait)
      )[0];
    }
  }
}

/** The session index's sorted-set commands on an ioredis client. */
export function sortedSetCommands(client: Redis | Cluster): SortedSetCommands {
  return {
    add: (key, score, member, options) =>
      options?.onlyNew ? client.zadd(key, "NX", score, member) : client.zadd(key, score, member),
    remove: (key, members) => client.zrem(key, ...members),
    range: (key, start, stop, withScores) =>
      withScores
        ? client.zrange(key, String(start), String(stop), "WITHSCORES")
        : client.zrange(key, String(start), String(stop)),
    rangeBelow: (key, max) => client.zrangebyscore(key, "-inf", `(${max}`),
  };
}

/** Runs a MULTI and returns its replies, throwing the first command's error (or an aborted transaction). */
export async function execMulti(transaction: ChainableCommander): Promise<unknown[]> {
  const replies = await transaction.exec();
  if (replies === null) throw new Error("the MULTI transaction was aborted");
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
