import type { Redis } from "@upstash/redis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { rejectUnknownOptions } from "../reject-unknown-options";
import { rejectRenamedTtl } from "../redis/redis-layout";

/** Options of {@link UpstashRedisMemoryStore}. */
export interface UpstashRedisMemoryStoreOptions {
  /**
   * An `@upstash/redis` client you own: `Redis.fromEnv()` (reads `UPSTASH_REDIS_REST_URL` and
   * `UPSTASH_REDIS_REST_TOKEN`) or `new Redis({ url, token })`; from `@upstash/redis/cloudflare`
   * on Cloudflare Workers. Any of its options works (automatic deserialization on or off).
   */
  client: Redis;
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
   * How long to wait for the answer to one HTTP request (with the client's own retries), in ms;
   * then the operation fails with a `StoreError`, so a server or network that never answers
   * cannot hang a run. @default 10_000
   */
  requestTimeoutMs?: number;
}

const knownOptions = [
  "client",
  "prefix",
  "ttlMs",
  "lockLeaseMs",
  "requestTimeoutMs",
] as const satisfies readonly (keyof UpstashRedisMemoryStoreOptions)[];

/** Checks the options' shape (the client's kind, unknown names); each value is checked where it is read. */
export function checkUpstashOptions(options: UpstashRedisMemoryStoreOptions): void {
  const client: Record<string, unknown> | undefined =
    options != null && typeof options === "object" ? (options.client as unknown as Record<string, unknown>) : undefined;
  if (client == null || typeof client.evalsha !== "function" || typeof client.pipeline !== "function") {
    throw new InvalidArgumentError({
      argument: "client",
      message:
        'new UpstashRedisMemoryStore() needs { client }: an @upstash/redis client, e.g. Redis.fromEnv() or new Redis({ url, token }) from "@upstash/redis".',
    });
  }
  if (typeof client.connect === "function" && "status" in client) {
    throw new InvalidArgumentError({
      argument: "client",
      message:
        'new UpstashRedisMemoryStore() was given an ioredis client: use RedisMemoryStore from "agentcore/redis" for it, or pass an @upstash/redis client here.',
    });
  }
  rejectRenamedTtl("UpstashRedisMemoryStore", options);
  rejectUnknownOptions("UpstashRedisMemoryStore", options, knownOptions, {
    redis: "client",
    keyPrefix: "prefix",
    namespace: "prefix",
    url: "client",
    token: "client",
  });
}
