// agentcore/upstash: needs the optional peer `@upstash/redis`. Edge-safe (no Node built-in).
export type { UpstashRedisMemoryStoreOptions } from "./upstash-options";
export { UpstashRedisMemoryStore } from "./upstash-redis-memory-store";
