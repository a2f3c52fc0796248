import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.NoObjectGeneratedError";
const symbol = Symbol.for(marker);

/** Why a run with an `output` schema ended without an object. */
export type NoObjectReason =
  /** The last reply was not JSON, or not JSON of the schema, after every retry. */
  | "invalid"
  /** The run reached `maxSteps` while the model was still calling tools. */
  | "max-steps"
  /** A `stopWhen` condition stopped the run while the model was still calling tools. */
  | "stopped";

/** Token counts of the failed run (every model call, retries included). */
export interface NoObjectUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/**
 * A run with an `output` schema ended without a valid object: the model's last reply failed the
 * schema (bad JSON or a validation issue) after `retries` more attempts, each told the issue, or
 * the run ran out of steps while the model called tools. The failed replies are not stored.
 */
export class NoObjectGeneratedError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly reason: NoObjectReason;
  /** The model's last reply (`""` when it gave none). */
  readonly text: string;
  /** The model calls made for the object (the first and its retries). */
  readonly attempts: number;
  /** Token usage of the whole run, failed attempts included. */
  readonly usage: NoObjectUsage;
  readonly sessionId: string;

  constructor(options: {
    reason: NoObjectReason;
    text: string;
    attempts: number;
    usage: NoObjectUsage;
    sessionId: string;
    message: string;
    cause?: unknown;
  }) {
    super({ name: "NoObjectGeneratedError", message: options.message, cause: options.cause });
    this.reason = options.reason;
    this.text = options.text;
    this.attempts = options.attempts;
    this.usage = options.usage;
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is NoObjectGeneratedError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
