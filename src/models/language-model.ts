import type { AgentMessage, ToolCall } from "../messages/agent-message";
import type { FilePart, ImagePart, ReasoningPart } from "../messages/content-parts";
import { sumUsage } from "../messages/message-metadata";

/** A tool as the model sees it: a name, a description and a JSON schema of its input. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema (draft 2020-12 subset) of the tool's input object. */
  parameters: Record<string, unknown>;
}

/** One request to a model. Providers map it to their wire format. */
export interface LanguageModelCall {
  /**
   * The whole system prompt: the agent's prompt plus facts and summaries (and the recalled
   * memories when the turn's user message is not in `messages`; otherwise they are the first text
   * part of that message).
   */
  system?: string;
  /** The conversation window, keeping the pairing rule. Never contains system messages. */
  messages: AgentMessage[];
  /** Tools the model may call. Empty when there are none. */
  tools: ToolDefinition[];
  /**
   * Whether and which tool the model must call (the AI SDK's `toolChoice`): `"auto"` (it decides),
   * `"none"`, `"required"` (some tool), or one tool by name. Absent: the provider's default (auto).
   * Set by the agent's `prepareStep`.
   */
  toolChoice?: ToolChoice;
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
  /**
   * Where the request's stable prefix ends, for providers whose prompt cache needs explicit
   * breakpoints (Anthropic's `cache_control`). Set by the agent (its `cacheControl` option);
   * providers that cache by themselves (OpenAI) ignore it. Absent: no breakpoints.
   */
  cacheBreakpoints?: PromptCacheBreakpoints;
}

/** Whether and which tool a call's model must call (`LanguageModelCall.toolChoice`). */
export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; toolName: string };

/** The JSON answer a call asks for: `schema` is the JSON schema of an object. */
export interface ResponseFormat {
  type: "json";
  /** JSON schema (draft 2020-12 subset) of the object, `type: "object"`. */
  schema: Record<string, unknown>;
  /** A name for the object (OpenAI's `json_schema.name`, Anthropic's output tool name). 1-64 of `a-zA-Z0-9_-`. */
  name?: string;
  description?: string;
}

/**
 * The points of a request after which its prefix is expected to come again in later requests.
 * The prompt is read as tools, then `system`, then `messages`; a breakpoint caches everything up
 * to it.
 */
export interface PromptCacheBreakpoints {
  /**
   * Lengths, in characters and increasing, of prefixes of `system` that stay the same from one
   * request to the next: the agent's instructions, then with the facts block.
   */
  system: number[];
  /**
   * Indexes into `messages`, increasing, after which the prefix is reused: the end of the previous
   * request of this conversation (read from the cache; before a turn's first answer, when its user
   * message carries recalled memories, the end of the previous turn) and the last message
   * (written for the next).
   */
  messages: number[];
}

export interface LanguageModelUsage {
  /** Every input token, cached or not (cache reads and writes included). */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * Input tokens read from the provider's prompt cache, counted in `inputTokens` too (Anthropic's
   * `cache_read_input_tokens`, OpenAI's `prompt_tokens_details.cached_tokens`; the AI SDK's
   * `cachedInputTokens`). Absent when none was read (or the provider does not say).
   */
  cachedInputTokens?: number;
  /**
   * Input tokens written to the provider's prompt cache, counted in `inputTokens` too
   * (Anthropic's `cache_creation_input_tokens`; the AI SDK's `inputTokenDetails.cacheWriteTokens`).
   * Absent when none was written (or the provider does not say).
   */
  cacheCreationInputTokens?: number;
  /**
   * Output tokens the model spent reasoning, counted in `outputTokens` too (OpenAI's
   * `completion_tokens_details.reasoning_tokens`; the AI SDK's `outputTokens.reasoning`, ai 5's
   * `reasoningTokens`). Absent when there were none (or the provider does not say).
   */
  reasoningTokens?: number;
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
  /**
   * Whether the model takes this image or file part in a user message: its media type, given
   * inline (bytes, base64, a `data:` URL) or by remote URL (never fetched by agentcore). Absent:
   * every part is passed on and the provider answers for it. The agent refuses a new user message
   * with a part the model does not take before anything is stored (`UnsupportedPartError`), and
   * sends a stored part it does not take as a text placeholder (docs/messages.md).
   */
  supportsPart?(part: ImagePart | FilePart): boolean | PromiseLike<boolean>;
  doGenerate(call: LanguageModelCall): Promise<LanguageModelResult>;
  /** Streams the answer. Must end with exactly one `finish` part. */
  doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart>;
}

/** Makes a model of one provider from its model id (the part after the slash of `"provider/model"`). */
export type LanguageModelFactory = (modelId: string) => LanguageModel;

export function emptyUsage(): LanguageModelUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** The sum of two usages; a cache or reasoning count is present when either has it. */
export function addUsage(total: LanguageModelUsage, usage: LanguageModelUsage): LanguageModelUsage {
  return sumUsage(total, usage);
}

/** A usage with the cache counts that are above 0 (none read or written, or none reported: absent). */
export function withCacheCounts(
  usage: LanguageModelUsage,
  cachedInputTokens: number | null | undefined,
  cacheCreationInputTokens: number | null | undefined,
): LanguageModelUsage {
  return {
    ...usage,
    ...(cachedInputTokens && cachedInputTokens > 0 ? { cachedInputTokens } : {}),
    ...(cacheCreationInputTokens && cacheCreationInputTokens > 0 ? { cacheCreationInputTokens } : {}),
  };
}
