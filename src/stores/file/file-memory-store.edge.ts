import { UnsupportedRuntimeError } from "../../errors/unsupported-runtime-error";
import type { FileMemoryStoreOptions } from "./file-memory-store";

export type { FileMemoryStoreOptions } from "./file-memory-store";

/**
 * The edge build's `FileMemoryStore` (docs/architecture.md, "The edge build"): edge runtimes
 * have no file system, so constructing one throws an `UnsupportedRuntimeError` that names the
 * stores that work there. It keeps the name so code shared between Node and the edge imports.
 */
export class FileMemoryStore {
  constructor(_options: FileMemoryStoreOptions | string) {
    throw new UnsupportedRuntimeError({
      feature: "FileMemoryStore",
      requirement: "the Node.js file system",
      message:
        "FileMemoryStore needs the Node.js file system, which this runtime (an edge runtime, a worker or a browser) does not have. " +
        'Use InMemoryStore (one instance\'s memory), UpstashRedisMemoryStore from "agentcore/upstash" (Redis over HTTP), ' +
        "or your own MemoryStore on a database reachable with fetch; or run this route on the Node.js runtime.",
    });
  }
}
