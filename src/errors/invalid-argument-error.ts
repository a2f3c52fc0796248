import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.InvalidArgumentError";
const symbol = Symbol.for(marker);

/** An option or argument passed to agentcore is invalid. `argument` names it. */
export class InvalidArgumentError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly argument: string;
  readonly value: unknown;

  constructor(options: { argument: string; message: string; value?: unknown; cause?: unknown }) {
    super({ name: "InvalidArgumentError", message: options.message, cause: options.cause });
    this.argument = options.argument;
    this.value = options.value;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
