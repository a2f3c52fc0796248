import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.ToolApprovalNotPendingError";
const symbol = Symbol.for(marker);

/**
 * An approval answer named a tool call that does not await approval in the session: it was
 * already answered (a replay, or a second tab that answered it first), it never needed approval,
 * it does not exist, or `approvalId` is not the one the call was given. Nothing ran. `toolCallId`
 * names the call; `approvalId` is the id the answer carried, if any.
 */
export class ToolApprovalNotPendingError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly approvalId: string | undefined;

  constructor(options: { sessionId: string; toolCallId: string; approvalId?: string | undefined }) {
    super({
      name: "ToolApprovalNotPendingError",
      message: `Tool call "${options.toolCallId}"${options.approvalId === undefined ? "" : ` (approval "${options.approvalId}")`} does not await approval in session "${options.sessionId}": it was already answered, or it is not a call of this session that needs approval. Nothing ran.`,
      publicMessage:
        "This tool call does not await an answer any more (perhaps it was answered in another tab). Reload to see the conversation as it is.",
    });
    this.sessionId = options.sessionId;
    this.toolCallId = options.toolCallId;
    this.approvalId = options.approvalId;
  }

  static override isInstance(error: unknown): error is ToolApprovalNotPendingError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
