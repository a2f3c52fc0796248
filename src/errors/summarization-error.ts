import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.SummarizationError";
const symbol = Symbol.for(marker);

/** Why a summary could not be written. */
export type SummarizationFailure = "failed" | "timeout" | "too-long" | "empty" | "no-model" | "store";

/**
 * The summary strategy could not summarise older turns. The turn went on with a token window
 * (reported through `memory:error`, never thrown from a run); nothing stored was lost.
 */
export class SummarizationError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly reason: SummarizationFailure;
  readonly sessionId: string;
  /** The summariser, as `provider/model`, when known. */
  readonly model: string | undefined;

  constructor(options: {
    reason: SummarizationFailure;
    sessionId: string;
    message: string;
    model?: string;
    cause?: unknown;
  }) {
    super({ name: "SummarizationError", message: options.message, cause: options.cause });
    this.reason = options.reason;
    this.sessionId = options.sessionId;
    this.model = options.model;
  }

  static override isInstance(error: unknown): error is SummarizationError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
