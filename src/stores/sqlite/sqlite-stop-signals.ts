import { resolve } from "node:path";
import type { Database } from "better-sqlite3";
import { inProcessStopSignals, type StopSignals } from "../stop-signals";

/**
 * A SQLite store's stops: in this process, shared by every store object on the same database file
 * (a stop sent through one reaches a run on another); an in-memory database's by its own object.
 * SQLite has no notification between processes: a run in another process is not reached.
 */
export function sqliteStopSignals(database: Database): StopSignals {
  const file = database.memory || database.name === "" ? undefined : resolve(database.name);
  return inProcessStopSignals(file === undefined ? database : `sqlite:${file}`);
}
