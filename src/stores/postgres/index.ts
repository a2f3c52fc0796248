// agentcore/postgres: needs the optional peer `pg`.
export { PostgresMemoryStore } from "./postgres-memory-store";
export type { PostgresMemoryStoreOptions } from "./postgres-memory-store-options";
