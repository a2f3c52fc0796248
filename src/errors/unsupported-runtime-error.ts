import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.UnsupportedRuntimeError";
const symbol = Symbol.for(marker);

/**
 * A part of agentcore was used in a runtime that lacks what it needs, e.g. `FileMemoryStore`
 * (Node's file system) on the edge (Vercel Edge, Cloudflare Workers, a browser). The message
 * names what to use there instead.
 */
export class UnsupportedRuntimeError extends AgentCoreError {
  private readonly [symbol] = true;
  /** What was used, e.g. `"FileMemoryStore"`. */
  readonly feature: string;
  /** What it needs that this runtime lacks, e.g. `"the Node.js file system"`. */
  readonly requirement: string;

  constructor(options: { feature: string; requirement: string; message: string }) {
    super({ name: "UnsupportedRuntimeError", message: options.message });
    this.feature = options.feature;
    this.requirement = options.requirement;
  }

  static override isInstance(error: unknown): error is UnsupportedRuntimeError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
