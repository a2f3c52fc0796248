import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.AbortError";
const symbol = Symbol.for(marker);

/**
 * A run was stopped by its abort signal. The history stays valid: the user message and every
 * completed step are stored; the step that was interrupted is not. `sessionId` names the session.
 */
export class AbortError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly sessionId: string | undefined;

  constructor(options: { sessionId?: string; cause?: unknown }) {
    super({
      name: "AbortError",
      message: `The run${options.sessionId ? ` of session "${options.sessionId}"` : ""} was aborted.`,
      cause: options.cause,
    });
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is AbortError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
