import type { Redis } from "@upstash/redis";
import { positiveMillisecondsOption, redisPrefixOption } from "../redis/redis-layout";
import { RedisStoreCore } from "../redis/redis-store-core";
import { checkUpstashOptions, type UpstashRedisMemoryStoreOptions } from "./upstash-options";
import { UpstashStopSignals } from "./upstash-stop-signals";
import { UpstashTransport } from "./upstash-transport";

/**
 * Keeps sessions in Redis over HTTP with `@upstash/redis`: the store for edge functions (Vercel
 * Edge, Cloudflare Workers) and serverless, where no TCP connection lives between requests. It
 * uses only the client and Web APIs (fetch, Web Crypto), no Node built-in.
 *
 * The same logic, key layout, Lua scripts and guarantees as `RedisMemoryStore` (agentcore/redis):
 * both are the Redis stores' shared core (`RedisStoreCore`), here over HTTP (`UpstashTransport`),
 * so one database can be used through either. A write sends the index entry and the script in one
 * pipeline (one HTTP request, run in order); every reply is checked for its shape, and no request
 * waits longer than `requestTimeoutMs`.
 */
export class UpstashRedisMemoryStore extends RedisStoreCore {
  constructor(options: UpstashRedisMemoryStoreOptions) {
    checkUpstashOptions(options);
    super({
      store: "UpstashRedisMemoryStore",
      transport: new UpstashTransport(options.client as Redis),
      prefix: redisPrefixOption(options.prefix),
      ttlMs: positiveMillisecondsOption(options.ttlMs, "ttlMs"),
      lockLeaseMs: positiveMillisecondsOption(options.lockLeaseMs, "lockLeaseMs") || 30_000,
      requestTimeoutMs: positiveMillisecondsOption(options.requestTimeoutMs, "requestTimeoutMs") || 10_000,
      stopSignals: (session) => new UpstashStopSignals(session),
    });
  }
}
