import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { UnsupportedRuntimeError } from "../../errors/unsupported-runtime-error";
import { isModuleNotFound } from "../../errors/is-module-not-found";

let requireFromHere: NodeJS.Require | undefined;

/**
 * Loads the optional peer `better-sqlite3` when a store opens a file (a `database` you pass in
 * needs no load). Not installed: an `UnsupportedRuntimeError` whose message is the install
 * command, instead of Node's bare `ERR_MODULE_NOT_FOUND` at import. `createRequire` works in the
 * ESM build, and in the CJS build through tsup's `import.meta.url` shim.
 */
export function loadBetterSqlite3(): typeof BetterSqlite3 {
  requireFromHere ??= createRequire(import.meta.url);
  try {
    return requireFromHere("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    if (!isModuleNotFound(error, "better-sqlite3")) throw error;
    throw new UnsupportedRuntimeError({
      feature: "SqliteMemoryStore",
      requirement: 'the optional package "better-sqlite3" (12.x)',
      message:
        'SqliteMemoryStore needs the optional package "better-sqlite3", which is not installed: npm install better-sqlite3@12 (or pass an open database as { database }).',
      cause: error,
    });
  }
}
