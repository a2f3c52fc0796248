import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.TitleGenerationError";
const symbol = Symbol.for(marker);

/** Why a session's title could not be generated. */
export type TitleGenerationFailure = "failed" | "empty";

/**
 * A session's title could not be generated (`generateTitle`): the title model failed, or answered
 * no usable title. Told as the `title:error` event, never thrown from a run; the session stays
 * untitled (no later turn asks again; set a title with `updateSession`).
 */
export class TitleGenerationError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly reason: TitleGenerationFailure;
  readonly sessionId: string;
  /** The title model, as `provider/model`. */
  readonly model: string;

  constructor(options: {
    reason: TitleGenerationFailure;
    sessionId: string;
    model: string;
    message: string;
    cause?: unknown;
  }) {
    super({ name: "TitleGenerationError", message: options.message, cause: options.cause });
    this.reason = options.reason;
    this.sessionId = options.sessionId;
    this.model = options.model;
  }

  static override isInstance(error: unknown): error is TitleGenerationError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
