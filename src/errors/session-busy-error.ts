import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.SessionBusyError";
const symbol = Symbol.for(marker);

/** A run was started on a session that already has one in progress, with `concurrency: "reject"`. */
export class SessionBusyError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly sessionId: string;

  constructor(options: { sessionId: string }) {
    super({
      name: "SessionBusyError",
      message: `Session "${options.sessionId}" already has a run in progress. Wait for it, or use concurrency: "queue".`,
      publicMessage:
        "Another answer is still being written in this conversation. Wait for it to finish, then send again.",
    });
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is SessionBusyError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
