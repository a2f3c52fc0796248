import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.PrepareStepError";
const symbol = Symbol.for(marker);

/**
 * Why a `prepareStep` result was refused: `messages` held a message the step did not give it
 * (`unknown-message`: prepareStep may only filter or shorten the window, never add to it), or broke
 * the tool-call pairing rule (`broken-pairing`: a call without its result or a result without its
 * call); `tools` named a tool the agent does not have (`unknown-tool`); or the result was not of the
 * shape `{ model?, tools?, toolChoice?, system?, messages? }` (`invalid-result`).
 */
export type PrepareStepProblem = "unknown-message" | "broken-pairing" | "unknown-tool" | "invalid-result";

/**
 * A `prepareStep` result the run cannot use. The step's model is not called; the run fails, with
 * what earlier steps completed stored. `field` names the result's field, `messageIndex` the message
 * of the returned list, `toolCallId` the call whose pairing broke, `toolName` the unknown tool.
 */
export class PrepareStepError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly problem: PrepareStepProblem;
  readonly stepNumber: number;
  readonly field: string;
  readonly messageIndex: number | undefined;
  readonly toolCallId: string | undefined;
  readonly toolName: string | undefined;

  constructor(options: {
    problem: PrepareStepProblem;
    stepNumber: number;
    field: string;
    message: string;
    messageIndex?: number;
    toolCallId?: string;
    toolName?: string;
  }) {
    super({ name: "PrepareStepError", message: `prepareStep (step ${options.stepNumber}): ${options.message}` });
    this.problem = options.problem;
    this.stepNumber = options.stepNumber;
    this.field = options.field;
    this.messageIndex = options.messageIndex;
    this.toolCallId = options.toolCallId;
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is PrepareStepError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
