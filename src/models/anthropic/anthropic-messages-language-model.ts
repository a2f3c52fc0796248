import type Anthropic from "@anthropic-ai/sdk";
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
import { defaultAnthropicMaxTokens } from "./anthropic-model-ids";
import { convertToAnthropicMessages, convertToAnthropicTools } from "./convert-to-anthropic-messages";

/** How a Messages API model reaches Anthropic. Made by `createAnthropic`. */
export interface AnthropicMessagesConfig {
  provider: string;
  getClient: () => Promise<Anthropic>;
  /** `max_tokens` when the call sets no `maxOutputTokens`. @default by model family */
  defaultMaxTokens?: (modelId: string) => number;
}

type MessageCreateParams = Anthropic.Messages.MessageCreateParamsNonStreaming;

/** A Claude model behind the Anthropic Messages API, on the official `@anthropic-ai/sdk`. */
export class AnthropicMessagesLanguageModel implements LanguageModel {
  readonly provider: string;
  /** The resolved model id sent to the API (short names already mapped). */
  readonly modelId: string;
  private readonly config: AnthropicMessagesConfig;

  constructor(modelId: string, config: AnthropicMessagesConfig) {
    this.modelId = modelId;
    this.provider = config.provider;
    this.config = config;
  }

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const client = await this.config.getClient();
    let response: Anthropic.Messages.Message;
    try {
      response = await client.messages.create(this.requestBody(call), requestOptions(call));
    } catch (error) {
      throw this.wrapError(error, call);
    }
    let text = "";
    const toolCalls: ToolCall[] = [];
    for (const block of response.content ?? []) {
      if (block.type === "text") text += block.text;
      else if (block.type === "tool_use") {
        const input = block.input;
        toolCalls.push({
          id: block.id,
          name: block.name,
          arguments: input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
        });
      }
    }
    return {
      text,
      toolCalls,
      finishReason: mapAnthropicStopReason(response.stop_reason, toolCalls.length > 0),
      usage: convertUsage(response.usage),
      response: { ...(response.id ? { id: response.id } : {}), ...(response.model ? { modelId: response.model } : {}) },
    };
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const client = await this.config.getClient();
    type PendingToolUse = { id: string; name: string; json: string; emitted: boolean };
    const toolUses = new Map<number, PendingToolUse>();
    let stopReason: string | null | undefined;
    let usage: Partial<Anthropic.Messages.Usage> = {};
    let responseId: string | undefined;
    let responseModel: string | undefined;
    try {
      const stream = await client.messages.create({ ...this.requestBody(call), stream: true }, requestOptions(call));
      for await (const event of stream) {
        switch (event.type) {
          case "message_start":
            responseId = event.message.id || undefined;
            responseModel = event.message.model || undefined;
            usage = { ...event.message.usage };
            break;
          case "content_block_start":
            if (event.content_block.type === "tool_use") {
              const block = event.content_block;
              toolUses.set(event.index, { id: block.id, name: block.name, json: "", emitted: false });
            } else if (event.content_block.type === "text" && event.content_block.text) {
              yield { type: "text-delta", delta: event.content_block.text };
            }
            break;
          case "content_block_delta":
            if (event.delta.type === "text_delta") {
              if (event.delta.text) yield { type: "text-delta", delta: event.delta.text };
            } else if (event.delta.type === "input_json_delta") {
              const entry = toolUses.get(event.index);
              if (entry && event.delta.partial_json) {
                entry.json += event.delta.partial_json;
                yield { type: "tool-call-delta", toolCallId: entry.id, toolName: entry.name, argumentsDelta: event.delta.partial_json };
              }
            }
            break;
          case "content_block_stop": {
            const entry = toolUses.get(event.index);
            if (entry && !entry.emitted) {
              entry.emitted = true;
              yield { type: "tool-call", toolCall: { id: entry.id, name: entry.name, arguments: parseToolArguments(entry.json) } };
            }
            break;
          }
          case "message_delta":
            stopReason = event.delta.stop_reason ?? stopReason;
            // message_delta usage is cumulative; a field it leaves null keeps message_start's value.
            for (const [key, value] of Object.entries(event.usage ?? {})) {
              if (typeof value === "number") (usage as Record<string, number>)[key] = value;
            }
            break;
          default:
            break;
        }
      }
    } catch (error) {
      throw this.wrapError(error, call);
    }
    for (const entry of toolUses.values()) {
      if (entry.emitted) continue;
      entry.emitted = true;
      yield { type: "tool-call", toolCall: { id: entry.id, name: entry.name, arguments: parseToolArguments(entry.json) } };
    }
    yield {
      type: "finish",
      finishReason: mapAnthropicStopReason(stopReason, toolUses.size > 0),
      usage: convertUsage(usage),
      response: { ...(responseId ? { id: responseId } : {}), ...(responseModel ? { modelId: responseModel } : {}) },
    };
  }

  private requestBody(call: LanguageModelCall): MessageCreateParams {
    const { system, messages } = convertToAnthropicMessages(call.system, call.messages);
    const tools = convertToAnthropicTools(call.tools);
    const maxTokens = call.maxOutputTokens ?? (this.config.defaultMaxTokens ?? defaultAnthropicMaxTokens)(this.modelId);
    return {
      model: this.modelId,
      max_tokens: maxTokens,
      ...(system === undefined ? {} : { system }),
      messages,
      ...(tools ? { tools } : {}),
      ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
    };
  }

  private wrapError(error: unknown, call: LanguageModelCall): unknown {
    return toAPICallError(error, {
      provider: this.provider,
      modelId: this.modelId,
      abortSignal: call.abortSignal,
      apiKeyVariable: "ANTHROPIC_API_KEY",
    });
  }
}

function requestOptions(call: LanguageModelCall): { signal?: AbortSignal; maxRetries?: number } {
  return {
    ...(call.abortSignal ? { signal: call.abortSignal } : {}),
    ...(call.maxRetries === undefined ? {} : { maxRetries: call.maxRetries }),
  };
}

/** Maps a Messages API `stop_reason` to agentcore's `FinishReason`. */
export function mapAnthropicStopReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return hasToolCalls ? "tool-calls" : "stop";
    case "tool_use":
      return "tool-calls";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "content-filter";
    default:
      return hasToolCalls ? "tool-calls" : "other";
  }
}

/** Input tokens include cache writes and reads (the API counts those apart). */
function convertUsage(usage: Partial<Anthropic.Messages.Usage> | null | undefined): LanguageModelUsage {
  const inputTokens = (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
  const outputTokens = usage?.output_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}
