import type Anthropic from "@anthropic-ai/sdk";
import type { ToolCall } from "../../messages/agent-message";
import type { FilePart, ImagePart, ReasoningPart } from "../../messages/content-parts";
import type { LanguageModel, LanguageModelCall, LanguageModelResult, LanguageModelStreamPart } from "../language-model";
import { readEventStream } from "../read-event-stream";
import { toAPICallError } from "../to-api-call-error";
import { AnthropicStreamParts, convertAnthropicUsage, mapAnthropicStopReason } from "./anthropic-stream-parts";
import { defaultAnthropicMaxTokens } from "./anthropic-model-ids";
import { anthropicTakesPart, reasoningPartOf } from "./anthropic-content-blocks";
import { applyCacheBreakpoints, type CacheableRequest } from "./anthropic-cache-control";
import { anthropicOutputTool } from "./anthropic-output-tool";
import {
  convertToAnthropicMessages,
  convertToAnthropicToolChoice,
  convertToAnthropicTools,
} from "./convert-to-anthropic-messages";
import { sdkRequestOptions } from "../sdk-request-options";
import { exceedsDepth, MAX_TOOL_ARGUMENTS_DEPTH } from "../../messages/tool-arguments-depth";

/** How a Messages API model reaches Anthropic. Made by `createAnthropic`. */
export interface AnthropicMessagesConfig {
  provider: string;
  getClient: () => Promise<Anthropic>;
  /** The API root the client calls (read when asked: the environment may change before the first call). */
  baseURL?: () => string;
  /** `max_tokens` when the call sets no `maxOutputTokens`. @default by model family */
  defaultMaxTokens?: (modelId: string) => number;
  /** `false`: no `cache_control` breakpoints, whatever the call's `cacheBreakpoints`. @default true */
  cacheControl?: boolean;
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

  get baseURL(): string | undefined {
    return this.config.baseURL?.();
  }

  /** Images and PDFs inline or by remote URL, `text/plain` files inline: what the Messages API takes. */
  supportsPart(part: ImagePart | FilePart): boolean {
    return anthropicTakesPart(part);
  }

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const client = await this.config.getClient();
    let response: Anthropic.Messages.Message;
    try {
      response = await client.messages.create(this.requestBody(call), sdkRequestOptions(call));
    } catch (error) {
      throw this.wrapError(error, call);
    }
    let text = "";
    const toolCalls: ToolCall[] = [];
    const reasoning: ReasoningPart[] = [];
    const output = anthropicOutputTool(call);
    let object: string | undefined;
    for (const block of response.content ?? []) {
      const thought = reasoningPartOf(block);
      if (thought) reasoning.push(thought);
      else if (block.type === "text") text += block.text;
      else if (block.type === "tool_use" && block.name === output?.name) object ??= outputText(block.input);
      else if (block.type === "tool_use") {
        const input = block.input;
        toolCalls.push({
          id: block.id,
          name: block.name,
          arguments:
            input !== null && typeof input === "object" && !Array.isArray(input)
              ? (input as Record<string, unknown>)
              : {},
        });
      }
    }
    // With an output tool, the answer is its input (text beside it is not the object).
    if (output) text = object ?? "";
    return {
      text,
      toolCalls,
      ...(reasoning.length ? { reasoning } : {}),
      finishReason:
        object !== undefined && toolCalls.length === 0
          ? "stop"
          : mapAnthropicStopReason(response.stop_reason, toolCalls.length > 0),
      usage: convertAnthropicUsage(response.usage),
      response: { ...(response.id ? { id: response.id } : {}), ...(response.model ? { modelId: response.model } : {}) },
    };
  }

  /**
   * Streams the answer. The SDK makes the request (auth, headers, retries, HTTP errors), and its
   * raw response body is read here (`readEventStream`): each read is decoded at once into parts
   * (`ServerSentEventDecoder`, then `AnthropicStreamParts`), a plain async iterator with no
   * generator hop per chunk. The events mean what the SDK makes of them: `ping` and events without
   * a type are skipped, an `error` event (e.g. `overloaded_error` mid-stream) throws the SDK's
   * `APIError`, whose `type` is the error's. Breaking off (an abort, a consumer that stops)
   * cancels the body, which closes the request.
   */
  doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    return { [Symbol.asyncIterator]: () => this.streamParts(call) };
  }

  private streamParts(call: LanguageModelCall): AsyncIterator<LanguageModelStreamPart> {
    const parts = new AnthropicStreamParts(anthropicOutputTool(call)?.name);
    let headers: Headers | undefined;
    return readEventStream({
      open: async () => {
        const client = await this.config.getClient();
        const response = await client.messages
          .create({ ...this.requestBody(call), stream: true }, sdkRequestOptions(call))
          .asResponse();
        headers = response.headers;
        return response;
      },
      decode: (data, event) => {
        if (event === undefined || event === "ping") return;
        if (event === "error") return streamError(data, headers);
        if (data) parts.add(JSON.parse(data) as Anthropic.Messages.RawMessageStreamEvent);
      },
      parts,
      abortSignal: call.abortSignal,
      wrapError: (error) => this.wrapError(error, call),
    });
  }

  private requestBody(call: LanguageModelCall): MessageCreateParams {
    const { system: systemText, messages, lastBlocks } = convertToAnthropicMessages(call.system, call.messages);
    const output = anthropicOutputTool(call);
    const cacheable: CacheableRequest = { system: systemText, tools: convertToAnthropicTools(call.tools) };
    if (call.cacheBreakpoints && this.config.cacheControl !== false)
      applyCacheBreakpoints(cacheable, call.cacheBreakpoints, lastBlocks);
    // The output tool of structured output comes after the call's tools, outside their breakpoint.
    const { system } = cacheable;
    const tools =
      cacheable.tools || output ? [...(cacheable.tools ?? []), ...(output ? [output.tool] : [])] : undefined;
    const maxTokens = call.maxOutputTokens ?? (this.config.defaultMaxTokens ?? defaultAnthropicMaxTokens)(this.modelId);
    return {
      model: this.modelId,
      max_tokens: maxTokens,
      ...(system === undefined ? {} : { system }),
      messages,
      ...(tools ? { tools } : {}),
      // Structured output forces its output tool; else the call's own choice, if any.
      ...(output
        ? { tool_choice: output.toolChoice }
        : tools && call.toolChoice
          ? { tool_choice: convertToAnthropicToolChoice(call.toolChoice) }
          : {}),
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

/** The SDK's `APIError` for an `error` event of the stream, made as the SDK's own stream makes it (its `type` is the error's). */
async function streamError(data: string, headers: Headers | undefined): Promise<never> {
  const { APIError } = await import("@anthropic-ai/sdk");
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    // not JSON: the text itself, below
  }
  throw new APIError(undefined, (body ?? data) as object, undefined, headers as Headers);
}

/**
 * The output tool's input as the reply's JSON text. An input nested deeper than the bound (which
 * `JSON.stringify` could not even write past ~5,000 levels) becomes the shortest reply just past
 * it, which the run refuses as too deep and asks for again (docs/structured-output.md).
 */
function outputText(input: unknown): string {
  if (!exceedsDepth(input ?? {}, MAX_TOOL_ARGUMENTS_DEPTH)) return JSON.stringify(input ?? {});
  return "[".repeat(MAX_TOOL_ARGUMENTS_DEPTH + 1) + "]".repeat(MAX_TOOL_ARGUMENTS_DEPTH + 1);
}
