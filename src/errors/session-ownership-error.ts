import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.SessionOwnershipError";
const symbol = Symbol.for(marker);

/**
 * A run named a session that another user owns (a session is owned by the `userId` of the run that
 * created it). Refused before anything of the session is read or stored. The message names the
 * session and the user who asked, never the owner; `publicMessage` names neither.
 */
export class SessionOwnershipError extends AgentCoreError {
  private readonly [symbol] = true;
  /** The session that was asked for. */
  readonly sessionId: string;
  /** The user the run was for (not the owner). */
  readonly userId: string;

  constructor(options: { sessionId: string; userId: string }) {
    super({
      name: "SessionOwnershipError",
      message: `Session "${options.sessionId}" belongs to another user than "${options.userId}": the run was refused before anything was read or stored.`,
      publicMessage: "This conversation is not yours.",
    });
    this.sessionId = options.sessionId;
    this.userId = options.userId;
  }

  static override isInstance(error: unknown): error is SessionOwnershipError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
