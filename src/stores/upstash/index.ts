// agentcore/upstash: needs the optional peer `@upstash/redis`. Edge-safe (no Node built-in).
export { UpstashRedisMemoryStore, type UpstashRedisMemoryStoreOptions } from "./upstash-redis-memory-store";
