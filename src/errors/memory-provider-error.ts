import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.MemoryProviderError";
const symbol = Symbol.for(marker);

/**
 * A memory provider failed: its service or callback threw, answered something that does not
 * parse, or a package it needs is missing. `provider` and `operation` say which and where.
 * The agent turns it into a `memory:error` event; the turn still completes.
 */
export class MemoryProviderError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly provider: string;
  readonly operation: string;

  constructor(options: { provider: string; operation: string; message: string; cause?: unknown }) {
    super({ name: "MemoryProviderError", message: options.message, cause: options.cause });
    this.provider = options.provider;
    this.operation = options.operation;
  }

  static override isInstance(error: unknown): error is MemoryProviderError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
