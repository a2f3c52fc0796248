import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.MessageNotFoundError";
const symbol = Symbol.for(marker);

/**
 * A message named by its id is not in the session: `deleteMessagesFrom`, or a run's `replaceFrom`
 * or a `streamText` regenerate naming a message the store does not hold. Nothing was deleted or
 * changed. `sessionId` and `messageId` name what was asked for.
 */
export class MessageNotFoundError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly sessionId: string;
  readonly messageId: string;

  constructor(options: { sessionId: string; messageId: string }) {
    super({
      name: "MessageNotFoundError",
      message: `Session "${options.sessionId}" has no message with id "${options.messageId}": nothing was changed. Read the session's messages (their ids) and name one of them.`,
      publicMessage: "This message is no longer in the conversation. Reload to see the conversation as it is.",
    });
    this.sessionId = options.sessionId;
    this.messageId = options.messageId;
  }

  static override isInstance(error: unknown): error is MessageNotFoundError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
