import type { AgentMessage } from "../messages/agent-message";
import type { AISDKLanguageModel } from "../models/ai-sdk/ai-sdk-types";
import type { LanguageModel, ToolChoice } from "../models/language-model";
import type { StepResult } from "./agent-result";

/** What `prepareStep` is given before each model call. */
export interface PrepareStepOptions<Context = unknown> {
  /** 1-based: the step about to run. */
  stepNumber: number;
  /** This run's steps so far. */
  steps: readonly StepResult[];
  /** The window the strategy fitted for this step (stored messages, pairing rule kept). */
  messages: readonly AgentMessage[];
  /** The agent's model. */
  model: LanguageModel;
  /** The app's context of the run (`agent.run({ context })`), as given. */
  context: Context;
}

/** What `prepareStep` may change of one step; a field left out keeps the agent's. */
export interface PrepareStepResult {
  /** Another model for this call (as the `model` option: a `"provider/model"` string or a model). */
  model?: string | LanguageModel | AISDKLanguageModel;
  /** The names of the agent's tools the model may call in this step (a subset; a call of another is answered as an unknown tool). */
  tools?: readonly string[];
  /** Whether and which tool the model must call: `"auto"`, `"none"`, `"required"`, or `{ type: "tool", toolName }`. */
  toolChoice?: ToolChoice;
  /** The agent's instructions for this call, in place of `systemPrompt` (facts, summary and recalled memories still follow). */
  system?: string;
  /**
   * The messages to send, from those given, in their order: only filtered or shortened. A message
   * not given, or a list that breaks the tool-call pairing rule, is a `PrepareStepError`.
   */
  messages?: readonly AgentMessage[];
}

/** The agent's `prepareStep` option: called before each model call; return `undefined` to change nothing. */
export type PrepareStep<Context = unknown> = (
  options: PrepareStepOptions<Context>,
) => PrepareStepResult | undefined | PromiseLike<PrepareStepResult | undefined>;
