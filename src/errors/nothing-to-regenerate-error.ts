import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.NothingToRegenerateError";
const symbol = Symbol.for(marker);

/**
 * A regenerate found no user message to answer again: the session is empty (`reason: "empty"`)
 * or holds no user message (`reason: "no-user-message"`). Nothing was changed.
 */
export class NothingToRegenerateError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly sessionId: string;
  readonly reason: "empty" | "no-user-message";

  constructor(options: { sessionId: string; reason: "empty" | "no-user-message" }) {
    super({
      name: "NothingToRegenerateError",
      message:
        options.reason === "empty"
          ? `Session "${options.sessionId}" is empty: there is no answer to regenerate. Send a message first.`
          : `Session "${options.sessionId}" has no user message: there is no answer to regenerate. Send a message first.`,
      publicMessage: "There is no answer to regenerate yet: send a message first.",
    });
    this.sessionId = options.sessionId;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is NothingToRegenerateError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
