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
   * The model's reasoning: one delta per reasoning block, when the model has completed it (an
   * Anthropic thinking block with its signature in `providerMetadata`), in its place before the
   * text. The UI stream sends it as `reasoning-*` chunks.
   */
  | { type: "reasoning-delta"; delta: string; providerMetadata?: Record<string, unknown> }
  | { type: "tool-call"; toolCall: ToolCall }
  | { type: "tool-result"; toolCallId: string; toolName: string; result: unknown; isError: boolean }
  | { type: "step-finish"; stepNumber: number; finishReason: FinishReason; usage: LanguageModelUsage }
  | { type: "finish"; finishReason: FinishReason; usage: LanguageModelUsage; text: string }
  | { type: "error"; error: unknown };
