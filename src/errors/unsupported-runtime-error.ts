import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.UnsupportedRuntimeError";
const symbol = Symbol.for(marker);

/**
 * A part of agentcore was used in a runtime that lacks what it needs: e.g. `FileMemoryStore`
 * (Node's file system) on the edge (Vercel Edge, Cloudflare Workers, a browser), where the
 * message names what to use there instead; or an optional peer package that is not installed
 * (`Mem0Provider` without `mem0ai`, `SqliteMemoryStore` without `better-sqlite3`), where the
 * message is the install command.
 */
export class UnsupportedRuntimeError extends AgentCoreError {
  private readonly [symbol] = true;
  /** What was used, e.g. `"FileMemoryStore"`. */
  readonly feature: string;
  /** What it needs that this runtime lacks, e.g. `"the Node.js file system"` or `'the optional package "mem0ai"'`. */
  readonly requirement: string;

  constructor(options: { feature: string; requirement: string; message: string; cause?: unknown }) {
    super({ name: "UnsupportedRuntimeError", message: options.message, cause: options.cause });
    this.feature = options.feature;
    this.requirement = options.requirement;
  }

  static override isInstance(error: unknown): error is UnsupportedRuntimeError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
