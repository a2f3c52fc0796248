import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.InvalidMessageError";
const symbol = Symbol.for(marker);

export interface MessageIssue {
  /** Index of the offending message in the list that was checked. */
  index: number;
  /** Path of the offending field inside that message, e.g. `toolCalls.0.id`. */
  path: string;
  message: string;
}

/**
 * A message (or list of messages) does not have the `AgentMessage` shape, or breaks the tool-call
 * pairing rule (docs/architecture.md, "Messages and the pairing rule"). `issues` names each
 * message and field that was wrong.
 */
export class InvalidMessageError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly issues: MessageIssue[];

  constructor(options: { issues: MessageIssue[]; message?: string; cause?: unknown }) {
    const summary = options.issues
      .slice(0, 5)
      .map((issue) => `message ${issue.index}${issue.path ? ` (${issue.path})` : ""}: ${issue.message}`)
      .join("; ");
    super({
      name: "InvalidMessageError",
      message: options.message ?? `Invalid message: ${summary}`,
      cause: options.cause,
      // What was wrong with the sender's own message: the paths and checks, never another's data.
      publicMessage: `This message could not be accepted: ${options.issues
        .slice(0, 3)
        .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
        .join("; ")}.`,
    });
    this.issues = options.issues;
  }

  static override isInstance(error: unknown): error is InvalidMessageError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
