import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.StoreError";
const symbol = Symbol.for(marker);

/** A memory store failed, or returned a record that does not parse. */
export class StoreError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly store: string;
  readonly sessionId: string | undefined;
  readonly operation: string;

  constructor(options: { store: string; operation: string; message: string; sessionId?: string; cause?: unknown }) {
    super({ name: "StoreError", message: options.message, cause: options.cause });
    this.store = options.store;
    this.operation = options.operation;
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is StoreError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
