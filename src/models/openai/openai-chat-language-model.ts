import type OpenAI from "openai";
import type { ToolCall } from "../../messages/agent-message";
import type {
  FinishReason,
  LanguageModel,
  LanguageModelCall,
  LanguageModelResult,
  LanguageModelStreamPart,
  LanguageModelUsage,
} from "../language-model";
import { parseToolArguments } from "../parse-tool-arguments";
import { toAPICallError } from "../to-api-call-error";
import { convertToOpenAIMessages, convertToOpenAITools } from "./convert-to-openai-messages";

/** How a Chat Completions model reaches its provider. Made by `createOpenAI` / `createOpenAICompatible`. */
export interface OpenAIChatConfig {
  /** Provider id reported on the model and in errors, e.g. `"openai"`, `"ollama"`. */
  provider: string;
  /** The provider's SDK client, created once on first use. */
  getClient: () => Promise<OpenAI>;
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

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const client = await this.config.getClient();
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await client.chat.completions.create(this.requestBody(call), requestOptions(call));
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
    return {
      text: message?.content ?? "",
      toolCalls,
      finishReason: mapOpenAIFinishReason(choice?.finish_reason, toolCalls.length > 0),
      usage: convertUsage(response.usage),
      response: { ...(response.id ? { id: response.id } : {}), ...(response.model ? { modelId: response.model } : {}) },
    };
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const client = await this.config.getClient();
    const body = {
      ...this.requestBody(call),
      stream: true as const,
      ...(this.config.includeStreamUsage ? { stream_options: { include_usage: true } } : {}),
    };
    type PendingToolCall = { id: string; name: string; arguments: string; emitted: boolean };
    const pending = new Map<number, PendingToolCall>();
    let finishReason: string | null | undefined;
    let usage: LanguageModelUsage | undefined;
    let responseId: string | undefined;
    let responseModel: string | undefined;
    const complete = function* (below: number): Generator<LanguageModelStreamPart> {
      for (const index of [...pending.keys()].sort((a, b) => a - b)) {
        const entry = pending.get(index)!;
        if (index >= below || entry.emitted) continue;
        entry.emitted = true;
        yield { type: "tool-call", toolCall: { id: entry.id, name: entry.name, arguments: parseToolArguments(entry.arguments) } };
      }
    };
    try {
      const stream = await client.chat.completions.create(body, requestOptions(call));
      for await (const chunk of stream) {
        responseId ??= chunk.id || undefined;
        responseModel ??= chunk.model || undefined;
        if (chunk.usage) usage = convertUsage(chunk.usage);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta?.content) yield { type: "text-delta", delta: delta.content };
        for (const toolCallDelta of delta?.tool_calls ?? []) {
          const index = toolCallDelta.index ?? pending.size;
          let entry = pending.get(index);
          if (!entry) {
            // A new call starts: the calls before it are complete (OpenAI streams them in order).
            yield* complete(index);
            entry = { id: toolCallDelta.id || newToolCallId(), name: toolCallDelta.function?.name ?? "", arguments: "", emitted: false };
            pending.set(index, entry);
          } else if (!entry.name && toolCallDelta.function?.name) {
            entry.name = toolCallDelta.function.name;
          }
          const argumentsDelta = toolCallDelta.function?.arguments;
          if (argumentsDelta) {
            entry.arguments += argumentsDelta;
            yield { type: "tool-call-delta", toolCallId: entry.id, toolName: entry.name, argumentsDelta };
          }
        }
        if (choice.finish_reason) {
          finishReason = choice.finish_reason;
          yield* complete(Number.POSITIVE_INFINITY);
        }
      }
    } catch (error) {
      throw this.wrapError(error, call);
    }
    yield* complete(Number.POSITIVE_INFINITY);
    yield {
      type: "finish",
      finishReason: mapOpenAIFinishReason(finishReason, pending.size > 0),
      usage: usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      response: { ...(responseId ? { id: responseId } : {}), ...(responseModel ? { modelId: responseModel } : {}) },
    };
  }

  private requestBody(call: LanguageModelCall): ChatCompletionCreateParams {
    const tools = convertToOpenAITools(call.tools);
    return {
      model: this.modelId,
      messages: convertToOpenAIMessages(call.system, call.messages),
      ...(tools ? { tools } : {}),
      ...(call.maxOutputTokens === undefined ? {} : { [this.config.maxTokensField]: call.maxOutputTokens }),
      ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
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

/** The SDK request options of a call: its abort signal and its retries (the one retry layer). */
function requestOptions(call: LanguageModelCall): { signal?: AbortSignal; maxRetries?: number } {
  return {
    ...(call.abortSignal ? { signal: call.abortSignal } : {}),
    ...(call.maxRetries === undefined ? {} : { maxRetries: call.maxRetries }),
  };
}

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

function convertUsage(usage: OpenAI.Completions.CompletionUsage | null | undefined): LanguageModelUsage {
  const inputTokens = usage?.prompt_tokens ?? 0;
  const outputTokens = usage?.completion_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage?.total_tokens ?? inputTokens + outputTokens };
}

function newToolCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, "")}`;
}
