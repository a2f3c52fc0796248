// FileMemoryStore's options: their declaration and how the store checks and resolves them.
import { resolve } from "node:path";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { rejectUnknownOptions } from "../reject-unknown-options";
import type { FileStoreEngineOptions } from "./file-store-engine";

/** Options of {@link FileMemoryStore}. */
export interface FileMemoryStoreOptions {
  /** The snapshot file, e.g. `./storage/agent-sessions.json`. Its directory is created when missing. */
  path: string;
  /** fsync each write before it resolves (survives power loss, not only a crash). @default true */
  fsync?: boolean;
  /**
   * Journal size, in bytes, past which it is folded into the snapshot (never less than the
   * snapshot's own size, so compaction costs O(1) per byte written, amortised). @default 1_048_576
   */
  compactAfterBytes?: number;
  /** A lock not refreshed for this long belongs to a dead process and is broken. Minimum 2000. @default 10_000 */
  staleLockMs?: number;
  /** How long a write waits for another process's lock before failing. @default 30_000 */
  lockTimeoutMs?: number;
}

const knownOptions = ["path", "fsync", "compactAfterBytes", "staleLockMs", "lockTimeoutMs"] as const;
/** Names users bring from other libraries (nedb/lowdb `filename`, proper-lockfile `stale`). */
const optionAliases: Record<string, string> = {
  filename: "path",
  fileName: "path",
  file: "path",
  filePath: "path",
  sync: "fsync",
  stale: "staleLockMs",
  lockTimeout: "lockTimeoutMs",
};

/** The engine's options from the store's (an `InvalidArgumentError` naming a bad or unknown one), the path made absolute. */
export function resolveFileStoreOptions(options: FileMemoryStoreOptions | string): FileStoreEngineOptions {
  const resolved = typeof options === "string" ? { path: options } : options;
  if (
    resolved == null ||
    typeof resolved !== "object" ||
    typeof resolved.path !== "string" ||
    resolved.path.length === 0
  ) {
    throw new InvalidArgumentError({
      argument: "path",
      message: 'new FileMemoryStore() needs a file path, e.g. new FileMemoryStore("./storage/agent-sessions.json").',
    });
  }
  rejectUnknownOptions("FileMemoryStore", resolved, knownOptions, optionAliases);
  return {
    path: resolve(resolved.path),
    fsync: resolved.fsync ?? true,
    compactAfterBytes: resolved.compactAfterBytes ?? 1_048_576,
    staleLockMs: Math.max(2000, resolved.staleLockMs ?? 10_000),
    lockTimeoutMs: resolved.lockTimeoutMs ?? 30_000,
  };
}
