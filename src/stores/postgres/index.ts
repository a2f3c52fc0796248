// agentcore/postgres: needs the optional peer `pg`.
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from "./postgres-memory-store";
