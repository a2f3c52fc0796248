// agentcore/redis: needs the optional peer `ioredis`.
export { RedisMemoryStore, type RedisMemoryStoreOptions } from "./redis-memory-store";
export type { RedisReplicaWait } from "./redis-replica-wait";
