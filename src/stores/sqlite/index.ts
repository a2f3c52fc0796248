// agentcore/sqlite: needs the optional peer `better-sqlite3` (12.x).
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "./sqlite-memory-store";
