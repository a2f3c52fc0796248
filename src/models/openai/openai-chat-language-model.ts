import type OpenAI from "openai";
import type { ToolCall } from "../../messages/agent-message";
import type { FilePart, ImagePart } from "../../messages/content-parts";
import {
  type FinishReason,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
  type LanguageModelUsage,
  withCacheCounts,
} from "../language-model";
import { parseToolArguments } from "../parse-tool-arguments";
import { readEventStream, StreamPartQueue } from "../read-event-stream";
import { toAPICallError } from "../to-api-call-error";
import {
  convertToOpenAIMessages,
  convertToOpenAIToolChoice,
  convertToOpenAITools,
  openAIChatTakesPart,
} from "./convert-to-openai-messages";
import { openAIResponseFormat } from "./openai-response-format";
import { sdkRequestOptions } from "../sdk-request-options";

/** How a Chat Completions model reaches its provider. Made by `createOpenAI` / `createOpenAICompatible`. */
export interface OpenAIChatConfig {
  /** Provider id reported on the model and in errors, e.g. `"openai"`, `"ollama"`. */
  provider: string;
  /** The provider's SDK client, created once on first use. */
  getClient: () => Promise<OpenAI>;
  /** The API root the client calls (read when asked: the environment may change before the first call). */
  baseURL?: () => string;
  /** The request field that carries `maxOutputTokens`. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Sends `stream_options: { include_usage: true }` so streams report usage. */
  includeStreamUsage: boolean;
  /** Named in the message of a 401 error. */
  apiKeyVariable?: string;
}

type ChatCompletionCreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * A model behind the OpenAI Chat Completions API (OpenAI itself or any OpenAI-compatible server),
 * on the official `openai` SDK.
 */
export class OpenAIChatLanguageModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  private readonly config: OpenAIChatConfig;

  constructor(modelId: string, config: OpenAIChatConfig) {
    this.modelId = modelId;
    this.provider = config.provider;
    this.config = config;
  }

  get baseURL(): string | undefined {
    return this.config.baseURL?.();
  }

  /** Images inline or by remote URL, PDFs inline: what Chat Completions takes in a user message. */
  supportsPart(part: ImagePart | FilePart): boolean {
    return openAIChatTakesPart(part);
  }

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const client = await this.config.getClient();
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await client.chat.completions.create(this.requestBody(call), sdkRequestOptions(call));
    } catch (error) {
      throw this.wrapError(error, call);
    }
    const choice = response.choices?.[0];
    const message = choice?.message;
    const toolCalls: ToolCall[] = [];
    for (const toolCall of message?.tool_calls ?? []) {
      if (toolCall.type !== "function") continue;
      toolCalls.push({
        id: toolCall.id || newToolCallId(),
        name: toolCall.function.name,
        arguments: parseToolArguments(toolCall.function.arguments),
      });
    }
    const reasoning = reasoningContent(message);
    return {
      text: message?.content ?? "",
      toolCalls,
      ...(reasoning ? { reasoning: [{ type: "reasoning" as const, text: reasoning }] } : {}),
      finishReason: mapOpenAIFinishReason(choice?.finish_reason, toolCalls.length > 0),
      usage: convertUsage(response.usage),
      response: { ...(response.id ? { id: response.id } : {}), ...(response.model ? { modelId: response.model } : {}) },
    };
  }

  /**
   * Streams the answer. The SDK makes the request (auth, headers, retries, HTTP errors), and its
   * raw response body is read here (`readEventStream`): each read is decoded at once into parts
   * (`ServerSentEventDecoder`, then `ChatStreamParts`), a plain async iterator with no generator
   * hop per chunk and linear in the body (the SDK's own stream copies its buffer once per event).
   * The events mean what the SDK makes of them: `[DONE]` ends the answer, an event carrying
   * `error` throws the SDK's `APIError`. Breaking off (an abort, a consumer that stops) cancels
   * the body, which closes the request.
   */
  doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    return { [Symbol.asyncIterator]: () => this.streamParts(call) };
  }

  private streamParts(call: LanguageModelCall): AsyncIterator<LanguageModelStreamPart> {
    const parts = new ChatStreamParts();
    let headers: Headers | undefined;
    let answered = false; // `[DONE]` came: later events are ignored, the body is still read to its end
    return readEventStream({
      open: async () => {
        const client = await this.config.getClient();
        const request = {
          ...this.requestBody(call),
          stream: true as const,
          ...(this.config.includeStreamUsage ? { stream_options: { include_usage: true } } : {}),
        };
        const response = await client.chat.completions.create(request, sdkRequestOptions(call)).asResponse();
        headers = response.headers;
        return response;
      },
      // One event into parts; an event that carries `error` fails the stream with the SDK's `APIError`.
      decode: (data, event) => {
        if (answered || event?.startsWith("thread.")) return;
        if (data.startsWith("[DONE]")) {
          answered = true;
          return;
        }
        const chunk = JSON.parse(data) as OpenAI.Chat.Completions.ChatCompletionChunk & { error?: object };
        if (!chunk?.error) return parts.add(chunk);
        return import("openai").then(({ APIError }) => {
          throw new APIError(undefined, chunk.error, undefined, headers);
        });
      },
      parts,
      abortSignal: call.abortSignal,
      wrapError: (error) => this.wrapError(error, call),
    });
  }

  private requestBody(call: LanguageModelCall): ChatCompletionCreateParams {
    const tools = convertToOpenAITools(call.tools);
    return {
      model: this.modelId,
      messages: convertToOpenAIMessages(call.system, call.messages),
      ...(tools ? { tools } : {}),
      ...(tools && call.toolChoice ? { tool_choice: convertToOpenAIToolChoice(call.toolChoice) } : {}),
      ...(call.maxOutputTokens === undefined ? {} : { [this.config.maxTokensField]: call.maxOutputTokens }),
      ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
      ...(call.responseFormat ? { response_format: openAIResponseFormat(call.responseFormat) } : {}),
    };
  }

  private wrapError(error: unknown, call: LanguageModelCall): unknown {
    return toAPICallError(error, {
      provider: this.provider,
      modelId: this.modelId,
      abortSignal: call.abortSignal,
      ...(this.config.apiKeyVariable ? { apiKeyVariable: this.config.apiKeyVariable } : {}),
    });
  }
}

type PendingToolCall = { id: string; name: string; arguments: string; emitted: boolean };

/**
 * Turns Chat Completions chunks into stream parts, queued until read: text deltas as they come,
 * tool-call deltas, each tool call once complete (when the next one starts, at the finish reason,
 * or at the end: OpenAI streams calls in order), then one `finish` with the usage. An
 * OpenAI-compatible server's `reasoning_content` streams as `reasoning-delta` parts and comes
 * whole as one `reasoning` part when the answer or a tool call starts (or at the end).
 */
class ChatStreamParts extends StreamPartQueue {
  private readonly pending = new Map<number, PendingToolCall>();
  private finishReason: string | null | undefined;
  private usage: LanguageModelUsage | undefined;
  private responseId: string | undefined;
  private responseModel: string | undefined;
  /** Reasoning text streamed so far (`reasoning_content`), given whole when the answer starts or ends. */
  private reasoning = "";

  private endReasoning(): void {
    if (this.reasoning === "") return;
    this.push({ type: "reasoning", reasoning: { type: "reasoning", text: this.reasoning } });
    this.reasoning = "";
  }

  add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): void {
    this.responseId ??= chunk.id || undefined;
    this.responseModel ??= chunk.model || undefined;
    if (chunk.usage) this.usage = convertUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    const reasoning = reasoningContent(delta);
    if (reasoning) {
      this.reasoning += reasoning;
      this.push({ type: "reasoning-delta", delta: reasoning });
    }
    if (delta?.content || delta?.tool_calls?.length) this.endReasoning();
    if (delta?.content) this.push({ type: "text-delta", delta: delta.content });
    for (const toolCallDelta of delta?.tool_calls ?? []) {
      const index = toolCallDelta.index ?? this.pending.size;
      let entry = this.pending.get(index);
      if (!entry) {
        // A new call starts: the calls before it are complete (OpenAI streams them in order).
        this.complete(index);
        entry = {
          id: toolCallDelta.id || newToolCallId(),
          name: toolCallDelta.function?.name ?? "",
          arguments: "",
          emitted: false,
        };
        this.pending.set(index, entry);
      } else if (!entry.name && toolCallDelta.function?.name) {
        entry.name = toolCallDelta.function.name;
      }
      const argumentsDelta = toolCallDelta.function?.arguments;
      if (argumentsDelta) {
        entry.arguments += argumentsDelta;
        this.push({ type: "tool-call-delta", toolCallId: entry.id, toolName: entry.name, argumentsDelta });
      }
    }
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.endReasoning();
      this.complete(Number.POSITIVE_INFINITY);
    }
  }

  /** The stream ended: the calls not emitted yet, then `finish`. */
  end(): void {
    this.endReasoning();
    this.complete(Number.POSITIVE_INFINITY);
    this.push({
      type: "finish",
      finishReason: mapOpenAIFinishReason(this.finishReason, this.pending.size > 0),
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      response: {
        ...(this.responseId ? { id: this.responseId } : {}),
        ...(this.responseModel ? { modelId: this.responseModel } : {}),
      },
    });
  }

  /** Emits, in index order, the calls below `below` not emitted yet. */
  private complete(below: number): void {
    for (const index of [...this.pending.keys()].sort((a, b) => a - b)) {
      const entry = this.pending.get(index)!;
      if (index >= below || entry.emitted) continue;
      entry.emitted = true;
      this.push({
        type: "tool-call",
        toolCall: { id: entry.id, name: entry.name, arguments: parseToolArguments(entry.arguments) },
      });
    }
  }
}

/** The SDK request options of a call: its abort signal and its retries (the one retry layer). */

/** Maps a Chat Completions `finish_reason` to agentcore's `FinishReason`. */
export function mapOpenAIFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "stop":
      return hasToolCalls ? "tool-calls" : "stop";
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    default:
      return hasToolCalls ? "tool-calls" : "other";
  }
}

/**
 * OpenAI caches prompt prefixes by itself; what it read from the cache is
 * `prompt_tokens_details.cached_tokens`. A reasoning model's thinking is
 * `completion_tokens_details.reasoning_tokens` (within `completion_tokens`).
 */
function convertUsage(usage: OpenAI.Completions.CompletionUsage | null | undefined): LanguageModelUsage {
  const inputTokens = usage?.prompt_tokens ?? 0;
  const outputTokens = usage?.completion_tokens ?? 0;
  const reasoningTokens = usage?.completion_tokens_details?.reasoning_tokens;
  return withCacheCounts(
    {
      inputTokens,
      outputTokens,
      totalTokens: usage?.total_tokens ?? inputTokens + outputTokens,
      ...(typeof reasoningTokens === "number" && reasoningTokens > 0 ? { reasoningTokens } : {}),
    },
    usage?.prompt_tokens_details?.cached_tokens,
    undefined,
  );
}

function newToolCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, "")}`;
}

/**
 * The reasoning text of an OpenAI-compatible server's message or delta: `reasoning_content`
 * (DeepSeek, vLLM, SGLang, llama.cpp) or `reasoning` (vLLM's newer name, OpenRouter, Ollama).
 * OpenAI's own Chat Completions sends neither.
 */
function reasoningContent(message: unknown): string | undefined {
  if (message === null || typeof message !== "object") return undefined;
  const { reasoning_content: content, reasoning } = message as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof content === "string" && content !== "") return content;
  return typeof reasoning === "string" && reasoning !== "" ? reasoning : undefined;
}
