import type { MessageUsage, StepMetadata } from "../messages/message-metadata";

/**
 * UI messages: the shapes chat front ends keep (the AI SDK's `useChat`). agentcore reads the v4
 * shape (`content` + `toolInvocations`) and the v5+ shape (`parts`), and writes the v5+ shape.
 */

export type UIToolState =
  | "input-streaming"
  | "input-available"
  | "approval-requested"
  | "approval-responded"
  | "output-available"
  | "output-error"
  | "output-denied";

/** A tool call as a part of a UI message: `tool-<name>` (static) or `dynamic-tool`. */
export interface UIToolPart {
  type: `tool-${string}`;
  toolCallId: string;
  state: UIToolState;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  /** The input the model sent that failed to parse (`output-error`). */
  rawInput?: unknown;
  /** True for a call the provider ran (a server-side web search). */
  providerExecuted?: boolean;
  approval?: { id: string; approved?: boolean; reason?: string };
}

export interface UIDynamicToolPart {
  type: "dynamic-tool";
  toolName: string;
  toolCallId: string;
  state: UIToolState;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  /** The input the model sent that failed to parse (`output-error`). */
  rawInput?: unknown;
  /** True for a call the provider ran (a server-side web search). */
  providerExecuted?: boolean;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/** Provider-specific data of a part (a reasoning signature, a cache hint): a content part's `providerOptions`. */
export type UIProviderMetadata = Record<string, unknown>;

export type UIMessagePart =
  | { type: "text"; text: string; state?: "streaming" | "done"; providerMetadata?: UIProviderMetadata }
  | { type: "reasoning"; text: string; state?: "streaming" | "done"; providerMetadata?: UIProviderMetadata }
  | { type: "file"; mediaType: string; url: string; filename?: string; providerMetadata?: UIProviderMetadata }
  | { type: "step-start" }
  | UIToolPart
  | UIDynamicToolPart;

/**
 * A UI message's metadata: the app's own fields (`run({ metadata })`), and agentcore's under
 * `agentcore`: what a round trip needs to restore ids and times, and what the model calls of an
 * assistant message were (folded over its steps: docs/messages.md, "Message metadata").
 */
export interface UIMessageAgentMetadata {
  agentcore?: {
    /** Ids of the agent messages this UI message was made from, in order. */
    ids?: string[];
    /** Their timestamps, in the same order. */
    timestamps?: number[];
    /** The last step's model provider. */
    provider?: string;
    /** The last step's model id. */
    modelId?: string;
    /** Why the last step's model call stopped. */
    finishReason?: string;
    /** Token usage of the message's steps, summed. */
    usage?: MessageUsage;
    /** Milliseconds its model calls took, summed. */
    durationMs?: number;
    /** Each step's own fields, in order: only when the message has more than one step. */
    steps?: StepMetadata[];
  };
  [key: string]: unknown;
}

/** A UI message in the AI SDK v5+ shape: what `convertToUIMessages` writes. */
export interface UIMessageV5 {
  id: string;
  role: "system" | "user" | "assistant";
  parts: UIMessagePart[];
  metadata?: UIMessageAgentMetadata;
}

/** A tool invocation of the AI SDK v4 message shape. */
export interface UIToolInvocationV4 {
  toolCallId: string;
  toolName: string;
  args?: unknown;
  state: "partial-call" | "call" | "result";
  result?: unknown;
  step?: number;
}

/** A UI message in the AI SDK v4 shape. */
export interface UIMessageV4 {
  id: string;
  role: "system" | "user" | "assistant" | "data";
  content: string;
  createdAt?: string | number | Date;
  toolInvocations?: UIToolInvocationV4[];
  parts?: unknown[];
}

/**
 * A UI message as a client sends it: the v5+ shape (`parts`) or the older v4 shape (`content`
 * plus `toolInvocations`, as in the AgentCore document's converter example). `convertToModelMessages`
 * reads both; `convertToUIMessages` writes `UIMessageV5`.
 */
export type UIMessage = UIMessageV5 | UIMessageV4;
