import type { Cluster, Redis } from "ioredis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { rejectUnknownOptions } from "../reject-unknown-options";
import { IoredisTransport } from "./ioredis-transport";
import { positiveMillisecondsOption, redisPrefixOption, rejectRenamedTtl } from "./redis-layout";
import { replicaWaitOption, type RedisReplicaWait } from "./redis-replica-wait";
import { RedisStopSignals } from "./redis-stop-signals";
import { RedisStoreCore } from "./redis-store-core";

/** Options of {@link RedisMemoryStore}. */
export interface RedisMemoryStoreOptions {
  /** An ioredis client you own (`new Redis(url)` or `new Cluster(nodes)`). The store never closes it. */
  client: Redis | Cluster;
  /** Put before every key. Must not contain `{` or `}`. @default "agentcore:" */
  prefix?: string;
  /**
   * Milliseconds (not Redis's seconds) a session (and a fact scope) lives after its last write,
   * refreshed by every write: `ttlMs: 7 * 24 * 3_600_000` for a week. None when omitted.
   */
  ttlMs?: number;
  /** How long a session lock lives without being renewed, in ms (a crashed holder frees it after this). @default 30_000 */
  lockLeaseMs?: number;
  /**
   * Wait, after each write of messages, metadata, summaries or facts, until this many replicas
   * have it (Redis `WAIT`), so a failover cannot lose an acknowledged turn; a write not
   * acknowledged in time is a `StoreError` (it is stored on the master: a retry never duplicates).
   * None when omitted: Redis replicates asynchronously.
   */
  waitForReplicas?: RedisReplicaWait;
}

const store = "RedisMemoryStore";
const knownOptions = [
  "client",
  "prefix",
  "ttlMs",
  "lockLeaseMs",
  "waitForReplicas",
] as const satisfies readonly (keyof RedisMemoryStoreOptions)[];

/**
 * Keeps sessions in Redis, for agents served by many processes or machines: a `Redis` client or a
 * `Cluster`. The logic, key layout and scripts are the Redis stores' shared core
 * (`RedisStoreCore`, also behind `UpstashRedisMemoryStore`), here over ioredis
 * (`IoredisTransport`): one database can be used through either store.
 */
export class RedisMemoryStore extends RedisStoreCore {
  constructor(options: RedisMemoryStoreOptions) {
    if (options == null || typeof options !== "object" || options.client == null) {
      throw new InvalidArgumentError({
        argument: "client",
        message:
          'new RedisMemoryStore() needs { client }: an ioredis client, e.g. new Redis("redis://localhost:6379").',
      });
    }
    rejectRenamedTtl(store, options);
    rejectUnknownOptions(store, options, knownOptions, {
      keyPrefix: "prefix",
      namespace: "prefix",
      redis: "client",
    });
    super({
      store,
      transport: new IoredisTransport(options.client, replicaWaitOption(options.waitForReplicas)),
      prefix: redisPrefixOption(options.prefix),
      ttlMs: positiveMillisecondsOption(options.ttlMs, "ttlMs"),
      lockLeaseMs: positiveMillisecondsOption(options.lockLeaseMs, "lockLeaseMs") || 30_000,
      requestTimeoutMs: 0, // ioredis has its own (`commandTimeout`, `maxRetriesPerRequest`)
      stopSignals: () => new RedisStopSignals(options.client, `${redisPrefixOption(options.prefix)}stop`),
    });
  }
}
