import type { AgentMessage, ToolCall } from "../messages/agent-message";
import type { ToolApprovalResponse } from "../messages/pending-approvals";

export type { ToolApprovalResponse };
import type { FinishReason, LanguageModelUsage } from "../models/language-model";

/** The outcome of one tool call in a step. */
export interface ToolResult {
  toolCallId: string;
  toolName: string;
  /** What `execute` returned, or the error text given to the model. */
  result: unknown;
  isError: boolean;
  /** The user denied the call (docs/approvals.md): it never ran, and `result` is what the model was told. */
  denied?: true;
}

/** A tool call that waits for the user's approval (docs/approvals.md). */
export interface ToolApprovalRequest {
  /** The approval's id (the AI SDK's `approvalId`: what `useChat`'s `addToolApprovalResponse` sends back as `id`). */
  approvalId: string;
  toolCallId: string;
  toolName: string;
  /** The call's arguments, as the model sent them. */
  input: Record<string, unknown>;
}

/**
 * Why a run ended: its last model call's reason, `"tool-approval"` when it stopped for tool
 * calls that wait for the user's approval (`result.toolApprovals`), or `"stopped"` when
 * `agent.stop` / `stopRun` stopped it (the text so far stored, docs/streaming.md "Stop").
 */
export type RunFinishReason = FinishReason | "tool-approval" | "stopped";

/** Which `stopWhen` condition stopped a run (`result.stoppedBy`). */
export interface RunStoppedBy {
  /** The condition's name: a helper's call (`hasToolCall("finish")`), else the function's name, else `stopWhen[index]`. */
  condition: string;
  /** Its place in the `stopWhen` list (0 for a single condition). */
  index: number;
}

/** One model call of a run and what followed from it. */
export interface StepResult {
  /** 1-based. */
  stepNumber: number;
  text: string;
  toolCalls: ToolCall[];
  /** Every tool result of the run, in order: first those of the calls its `approvals` ran or denied. */
  toolResults: ToolResult[];
  finishReason: FinishReason;
  usage: LanguageModelUsage;
}

export interface AgentResult {
  /** The text of the last step. */
  text: string;
  /** The messages this run added to the session, in order: the user message, then the turn. */
  messages: AgentMessage[];
  /** Token usage summed over all steps, plus what tools reported spending on a model (an MCP server's sampling). */
  usage: LanguageModelUsage;
  steps: StepResult[];
  /** Every tool call of the run, in order. */
  toolCalls: ToolCall[];
  /** Every tool result of the run, in order: first those of the calls its `approvals` ran or denied. */
  toolResults: ToolResult[];
  /**
   * Why the last step ended. `tool-calls` means `maxSteps` was reached; `tool-approval` that calls
   * wait for the user's approval (`toolApprovals`).
   */
  finishReason: RunFinishReason;
  /** The tool calls that wait for the user's approval when the run ended (empty when none do). */
  toolApprovals: ToolApprovalRequest[];
  /**
   * The `stopWhen` condition that stopped the run after a step whose tool calls ran (its name and
   * place in the list; `finishReason` is then that step's, `"tool-calls"`). Absent when none did:
   * the model answered, `maxSteps` was reached, or calls await approval.
   */
  stoppedBy?: RunStoppedBy;
  sessionId: string;
  runId: string;
  /** The validated object of a run with `output` (its type: `AgentObjectResult`). Absent otherwise. */
  object?: unknown;
  /**
   * The request was a retry of a turn the session already holds (its user message id, same
   * content: DESIGN.md §2): nothing ran, no model was called, nothing was stored; the result is the
   * stored turn, with no usage. Absent otherwise.
   */
  replayed?: true;
}

/** The result of a run with `output`: `object` is the answer, parsed and validated by the schema. */
export type AgentObjectResult<Value> = Omit<AgentResult, "object"> & { object: Value };

/** The parts of `agent.stream().fullStream`. */
export type AgentStreamPart =
  /**
   * A step begins. `messageId`: on the first step of a retried request's answer (`replayed`), the
   * id the store holds the answer under, which the UI stream announces instead of a new one.
   */
  | { type: "step-start"; stepNumber: number; messageId?: string }
  | { type: "text-delta"; delta: string }
  /**
   * The model's reasoning as it streams (a model that gives its reasoning only whole gives it as
   * one delta). The UI stream sends it as `reasoning-*` chunks.
   */
  | { type: "reasoning-delta"; delta: string; providerMetadata?: Record<string, unknown> }
  /**
   * A block of reasoning ended (each block ends once, after its deltas; a block without text,
   * Anthropic's redacted thinking, has none). `providerMetadata`: what the provider needs to take
   * the block back (an Anthropic signature or redacted data), as the stored reasoning part's
   * `providerOptions`; absent when the provider gave none. The UI stream sends it on
   * `reasoning-end`, so a stateless client sends the block back signed.
   */
  | { type: "reasoning-end"; providerMetadata?: Record<string, unknown> }
  /** A tool call the model has begun to write (its id as the run will record it), before its input. */
  | { type: "tool-input-start"; toolCallId: string; toolName: string }
  /** The next piece of a tool call's input JSON text, as the model writes it. */
  | { type: "tool-input-delta"; toolCallId: string; delta: string }
  | { type: "tool-call"; toolCall: ToolCall }
  | { type: "tool-result"; toolCallId: string; toolName: string; result: unknown; isError: boolean; denied?: true }
  | { type: "tool-approval-request"; approval: ToolApprovalRequest }
  /**
   * A run with `output`: the reply just streamed failed the schema (`issue`) and is asked for
   * again (`attempt`: 1 for the first retry). What was streamed of it is not the answer.
   */
  | { type: "object-retry"; attempt: number; issue: string }
  /**
   * A step ended. `messages`: its messages as they are stored, its assistant message (with its
   * `metadata`) then its tool results; the UI stream sends their metadata as `message-metadata`.
   */
  | {
      type: "step-finish";
      stepNumber: number;
      finishReason: FinishReason;
      usage: LanguageModelUsage;
      messages?: AgentMessage[];
    }
  | { type: "finish"; finishReason: RunFinishReason; usage: LanguageModelUsage; text: string }
  | { type: "error"; error: unknown };
