import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.ToolApprovalPendingError";
const symbol = Symbol.for(marker);

/**
 * A new user message came while tool calls of the session still await the user's approval. The
 * turn cannot go on until each is answered: pass `approvals` (with the new input, or alone), then
 * send the message. Nothing was stored. `toolCallIds` names the calls still waiting.
 */
export class ToolApprovalPendingError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly sessionId: string;
  readonly toolCallIds: string[];

  constructor(options: { sessionId: string; toolCallIds: string[] }) {
    super({
      name: "ToolApprovalPendingError",
      message: `Session "${options.sessionId}" has tool calls awaiting approval (${options.toolCallIds.map((id) => `"${id}"`).join(", ")}): answer them with approvals: [{ toolCallId, approved, reason? }] before or with a new message.`,
      publicMessage: "A tool call is waiting for your approval: approve or deny it, then send your message.",
    });
    this.sessionId = options.sessionId;
    this.toolCallIds = options.toolCallIds;
  }

  static override isInstance(error: unknown): error is ToolApprovalPendingError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
