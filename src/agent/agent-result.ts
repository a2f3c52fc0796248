import type { AgentMessage, ToolCall } from "../messages/agent-message";
import type { FinishReason, LanguageModelUsage } from "../models/language-model";

/** The outcome of one tool call in a step. */
export interface ToolResult {
  toolCallId: string;
  toolName: string;
  /** What `execute` returned, or the error text given to the model. */
  result: unknown;
  isError: boolean;
}

/** One model call of a run and what followed from it. */
export interface StepResult {
  /** 1-based. */
  stepNumber: number;
  text: string;
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
  finishReason: FinishReason;
  usage: LanguageModelUsage;
}

export interface AgentResult {
  /** The text of the last step. */
  text: string;
  /** The messages this run added to the session, in order: the user message, then the turn. */
  messages: AgentMessage[];
  /** Token usage summed over all steps. */
  usage: LanguageModelUsage;
  steps: StepResult[];
  /** Every tool call of the run, in order. */
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
  /** Why the last step ended. `tool-calls` means `maxSteps` was reached. */
  finishReason: FinishReason;
  sessionId: string;
  runId: string;
}

/** The parts of `agent.stream().fullStream`. */
export type AgentStreamPart =
  | { type: "step-start"; stepNumber: number }
  | { type: "text-delta"; delta: string }
  /**
   * The model's reasoning as it streams (a model that gives its reasoning only whole gives it as
   * one delta). The UI stream sends it as `reasoning-*` chunks.
   */
  | { type: "reasoning-delta"; delta: string; providerMetadata?: Record<string, unknown> }
  /** A tool call the model has begun to write (its id as the run will record it), before its input. */
  | { type: "tool-input-start"; toolCallId: string; toolName: string }
  /** The next piece of a tool call's input JSON text, as the model writes it. */
  | { type: "tool-input-delta"; toolCallId: string; delta: string }
  | { type: "tool-call"; toolCall: ToolCall }
  | { type: "tool-result"; toolCallId: string; toolName: string; result: unknown; isError: boolean }
  | { type: "step-finish"; stepNumber: number; finishReason: FinishReason; usage: LanguageModelUsage }
  | { type: "finish"; finishReason: FinishReason; usage: LanguageModelUsage; text: string }
  | { type: "error"; error: unknown };
