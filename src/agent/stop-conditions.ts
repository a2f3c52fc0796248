import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { LanguageModelUsage } from "../models/language-model";
import type { StepResult } from "./agent-result";

/** What a stop condition is asked after each step (docs/sessions-and-runs.md, "Loop control"). */
export interface StopConditionState {
  /** This run's steps so far, the one just finished last. */
  readonly steps: readonly StepResult[];
  /** The step just finished. */
  readonly lastStep: StepResult;
  /** Tokens spent by the run so far: every model call, plus what tools reported spending on a model. */
  readonly usage: LanguageModelUsage;
}

/**
 * Whether the run stops after the step just finished, whose tool calls ran (the AI SDK's `stopWhen`).
 * The function's `name` is what `result.stoppedBy.condition` reports (the helpers name themselves,
 * `stepCountIs(3)`); a throw fails the run.
 */
export type StopCondition = (state: StopConditionState) => boolean | PromiseLike<boolean>;

/** The `stopWhen` option: one condition, or a list of them (any true stops). */
export type StopWhen = StopCondition | readonly StopCondition[];

/** Stops once the run has made `count` steps (model calls). */
export function stepCountIs(count: number): StopCondition {
  return named(`stepCountIs(${count})`, ({ steps }) => steps.length >= count);
}

/** Stops after a step in which the model called the tool `toolName` (its call ran, its result is stored). */
export function hasToolCall(toolName: string): StopCondition {
  return named(`hasToolCall(${JSON.stringify(toolName)})`, ({ lastStep }) =>
    lastStep.toolCalls.some((toolCall) => toolCall.name === toolName),
  );
}

/** Stops once the run has spent `totalTokens` tokens or more (`usage.totalTokens`, a tool's own spending included). */
export function tokenBudgetIs(totalTokens: number): StopCondition {
  return named(`tokenBudgetIs(${totalTokens})`, ({ usage }) => usage.totalTokens >= totalTokens);
}

function named(name: string, condition: StopCondition): StopCondition {
  Object.defineProperty(condition, "name", { value: name });
  return condition;
}

/**
 * A `stopWhen` option checked (`argument` names it in the error): a function or a non-empty list of
 * functions, as a frozen list; `undefined` stays undefined (no condition: nothing is evaluated).
 */
export function resolveStopWhen(value: unknown, argument: string): readonly StopCondition[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  const bad = list.findIndex((condition) => typeof condition !== "function");
  if (list.length === 0 || bad !== -1) {
    throw new InvalidArgumentError({
      argument: bad === -1 || !Array.isArray(value) ? argument : `${argument}.${bad}`,
      value,
      message: `${argument} takes a stop condition ({ steps, lastStep, usage }) => boolean, or a non-empty list of them, such as stepCountIs(3) or hasToolCall("finish").`,
    });
  }
  return Object.freeze([...list] as StopCondition[]);
}
