// The ioredis transport of the Redis stores' shared logic (redis-store-core.ts): scripts by
// EVALSHA (EVAL when the server does not have them yet, SHA-1 from node:crypto), a write followed
// by a WAIT on the same connection when it must reach replicas, commands by `call` (replies as
// Redis sent them). Works on a `Redis` and on a `Cluster` (each command goes to its slot's master).
import { createHash } from "node:crypto";
import type { Cluster, Redis } from "ioredis";
import { errorText } from "../../errors/error-text";
import { IoredisSubscriber } from "./ioredis-subscriber";
import { execWaitingForReplicas, type RedisReplicaWait } from "./redis-replica-wait";
import type { RedisCommand, RedisTransport } from "./redis-transport";

const shas = new Map<string, string>();

/** A script's SHA-1 in hex, computed once. */
function shaOf(source: string): string {
  let sha = shas.get(source);
  if (sha === undefined) {
    sha = createHash("sha1").update(source).digest("hex");
    shas.set(source, sha);
  }
  return sha;
}

const isNoScript = (error: unknown) => error instanceof Error && error.message.startsWith("NOSCRIPT");

/** Sends a store's commands on its ioredis client, its writes waiting for replicas when `waitForReplicas` asks. */
export class IoredisTransport implements RedisTransport {
  readonly serverName = "Redis";
  readonly cluster: boolean;
  private subscriber: IoredisSubscriber | undefined;

  constructor(
    private readonly client: Redis | Cluster,
    private readonly waitForReplicas: RedisReplicaWait | undefined,
  ) {
    this.cluster = client.isCluster === true;
  }

  async script(source: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.client.evalsha(shaOf(source), keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return await this.client.eval(source, keys.length, ...keys, ...args);
    }
  }

  /**
   * `first` and the script written to the connection(s) at once (one round trip; on a Cluster the
   * index key is in another slot, so on another connection); with `waitForReplicas`, a `WAIT`
   * follows the script on its connection.
   */
  async writeScript(first: RedisCommand, source: string, keys: string[], args: string[]): Promise<unknown> {
    const [, reply] = await Promise.all([this.command(first), this.scriptWaitingForReplicas(source, keys, args)]);
    return reply;
  }

  read(command: string, key: string, args: (string | number)[]): Promise<unknown> {
    return this.client.call(command, key, ...args);
  }

  command([name, ...args]: RedisCommand): Promise<unknown> {
    return this.client.call(name, ...args);
  }

  errorText(error: unknown): string {
    return errorText(error);
  }

  /** On a duplicate of the client (`IoredisSubscriber`), made on the first subscription. */
  subscribe(channel: string, onMessage: () => void): Promise<() => Promise<void>> {
    this.subscriber ??= new IoredisSubscriber(this.client);
    return this.subscriber.subscribe(channel, onMessage);
  }

  private async scriptWaitingForReplicas(source: string, keys: string[], args: string[]): Promise<unknown> {
    const wait = this.waitForReplicas;
    if (!wait) return await this.script(source, keys, args);
    const sha = shaOf(source);
    try {
      return (
        await execWaitingForReplicas(this.client.pipeline().evalsha(sha, keys.length, ...keys, ...args), wait)
      )[0];
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return (
        await execWaitingForReplicas(this.client.pipeline().eval(source, keys.length, ...keys, ...args), wait)
      )[0];
    }
  }
}
