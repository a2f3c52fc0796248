import type { AgentMessage, ToolCall } from "../messages/agent-message";
import type { ReasoningPart } from "../messages/content-parts";

/** A tool as the model sees it: a name, a description and a JSON schema of its input. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema (draft 2020-12 subset) of the tool's input object. */
  parameters: Record<string, unknown>;
}

/** One request to a model. Providers map it to their wire format. */
export interface LanguageModelCall {
  /** The whole system prompt: the agent's prompt plus facts, summaries and recalled memories. */
  system?: string;
  /** The conversation window, keeping the pairing rule. Never contains system messages. */
  messages: AgentMessage[];
  /** Tools the model may call. Empty when there are none. */
  tools: ToolDefinition[];
  /** Stops the request (the HTTP request, for real providers). */
  abortSignal?: AbortSignal;
  /** Upper bound on generated tokens. Provider default when omitted. */
  maxOutputTokens?: number;
  temperature?: number;
  /** Retries of the provider SDK (the one retry layer). Provider default when omitted. */
  maxRetries?: number;
  /**
   * Ask for a JSON object of this schema as the answer (structured output; the AI SDK's
   * `responseFormat`). The model may still call `tools` first; its answer without tool calls is
   * the object, as JSON text in `text` (an adapter that gets it as a tool call, Anthropic, gives it
   * back as text and no tool call).
   */
  responseFormat?: ResponseFormat;
}

/** The JSON answer a call asks for: `schema` is the JSON schema of an object. */
export interface ResponseFormat {
  type: "json";
  /** JSON schema (draft 2020-12 subset) of the object, `type: "object"`. */
  schema: Record<string, unknown>;
  /** A name for the object (OpenAI's `json_schema.name`, Anthropic's output tool name). 1-64 of `a-zA-Z0-9_-`. */
  name?: string;
  description?: string;
}

export interface LanguageModelUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "error" | "other";

export interface LanguageModelResult {
  text: string;
  toolCalls: ToolCall[];
  /**
   * The model's reasoning (extended thinking), in the order it came, each part with what the
   * provider needs to take it back (an Anthropic signature in `providerOptions.anthropic`). The
   * agent stores it first in the assistant message's content, before the text.
   */
  reasoning?: ReasoningPart[];
  finishReason: FinishReason;
  usage: LanguageModelUsage;
  /** Provider response metadata, when known. */
  response?: { id?: string; modelId?: string };
}

/** A part of a model's streamed answer. */
export type LanguageModelStreamPart =
  | { type: "text-delta"; delta: string }
  /**
   * Reasoning text as it streams (optional for providers). The block still comes whole as a
   * `reasoning` part when it ends (with its signature): that one is what is stored.
   */
  | { type: "reasoning-delta"; delta: string }
  /** A complete block of reasoning (extended thinking), once its signature is known. */
  | { type: "reasoning"; reasoning: ReasoningPart }
  /** Incremental arguments text of a tool call being generated (optional for providers). */
  | { type: "tool-call-delta"; toolCallId: string; toolName: string; argumentsDelta: string }
  /** A complete tool call, arguments parsed. */
  | { type: "tool-call"; toolCall: ToolCall }
  | {
      type: "finish";
      finishReason: FinishReason;
      usage: LanguageModelUsage;
      response?: { id?: string; modelId?: string };
    };

/**
 * A chat model. Implement it to plug in any provider; built-in ones are resolved from
 * `"provider/model"` strings.
 */
export interface LanguageModel {
  /** Provider id, e.g. `"openai"`. */
  readonly provider: string;
  /** Model id as the provider knows it, e.g. `"gpt-4o"`. */
  readonly modelId: string;
  /** The API root its requests go to, when known: traces record its host as `server.address` / `server.port`. */
  readonly baseURL?: string;
  doGenerate(call: LanguageModelCall): Promise<LanguageModelResult>;
  /** Streams the answer. Must end with exactly one `finish` part. */
  doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart>;
}

/** Makes a model of one provider from its model id (the part after the slash of `"provider/model"`). */
export type LanguageModelFactory = (modelId: string) => LanguageModel;

export function emptyUsage(): LanguageModelUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

export function addUsage(total: LanguageModelUsage, usage: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    totalTokens: total.totalTokens + usage.totalTokens,
  };
}
