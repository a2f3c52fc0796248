import { booleanOption } from "../../errors/check-option";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { type FilePart, type ImagePart, isUrl } from "../../messages/content-parts";
import { isInlineData } from "../../messages/data-content";
import { wireImageMediaType } from "../wire-content";
import { type AISDKSupportedUrls, isAISDKUrlSupported } from "./ai-sdk-supported-urls";
import type { LanguageModel, LanguageModelCall, LanguageModelResult, LanguageModelStreamPart } from "../language-model";
import { applyAISDKCacheBreakpoints, readsAnthropicCacheControl } from "./ai-sdk-cache-control";
import { convertAISDKGenerateResult } from "./ai-sdk-result";
import type { AISDKCallOptions, AISDKJSONSchema, AISDKLanguageModel, AISDKProviderOptions } from "./ai-sdk-types";
import { convertAISDKError } from "./convert-ai-sdk-error";
import { convertAISDKStream } from "./convert-ai-sdk-stream";
import { convertToAISDKPromptParts, convertToAISDKTools } from "./convert-to-ai-sdk-prompt";
import { retryAISDKCall } from "./retry-ai-sdk-call";

/** Call settings of an AI SDK model used through agentcore (`fromAISDK(model, settings)`). */
export interface AISDKModelSettings {
  /** Extra HTTP headers sent with every call. @default none */
  headers?: Record<string, string>;
  /** Provider-specific options passed to every call as is, e.g. `{ openai: { reasoningEffort: "low" } }`. @default none */
  providerOptions?: AISDKProviderOptions;
  /**
   * Whether the agent's prompt-cache breakpoints go to the model as Anthropic's
   * `providerOptions.anthropic.cacheControl` (docs/providers.md, "Prompt caching"). `false`: never;
   * `true`: also for a provider id agentcore does not know as Anthropic's (`createAnthropic({ name })`).
   * @default true for Anthropic models (`@ai-sdk/anthropic`, and Vertex's and Bedrock's Anthropic models), false for others
   */
  cacheControl?: boolean;
  /**
   * Which image and file parts of user messages the model takes (`LanguageModel.supportsPart`),
   * for what the AI SDK model does not say: e.g. `(part) => part.type === "image" || part.mediaType
   * === "application/pdf"` for a model whose provider package throws on other inline files.
   * @default parts given inline: all; given by remote URL: those the model's `supportedUrls` lists
   */
  supportsPart?: (part: ImagePart | FilePart) => boolean | PromiseLike<boolean>;
}

/**
 * An AI SDK language model (spec v2, v3 or v4) as an agentcore `LanguageModel`: agentcore's call is
 * converted to the AI SDK's call options and the answer back. The model's own provider package
 * does the HTTP; this class never imports `ai` or `@ai-sdk/*`.
 */
export class AISDKLanguageModelAdapter implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  /** The AI SDK model this adapter calls. */
  readonly aiSDKModel: AISDKLanguageModel;
  private readonly settings: AISDKModelSettings;
  /** Whether calls carry the agent's cache breakpoints (`settings.cacheControl`, by default: an Anthropic model). */
  private readonly cacheControl: boolean;

  constructor(model: AISDKLanguageModel, settings: AISDKModelSettings = {}) {
    this.aiSDKModel = model;
    // AI SDK provider ids name the API too ("openai.chat", "google.generative-ai"): the part
    // before the dot is the provider, as agentcore's "provider/model" strings name it.
    this.provider = String(model.provider).split(".")[0] || String(model.provider);
    this.modelId = String(model.modelId);
    if (settings.supportsPart !== undefined && typeof settings.supportsPart !== "function") {
      throw new InvalidArgumentError({
        argument: "supportsPart",
        value: settings.supportsPart,
        message: "supportsPart must be a function of an image or file part returning true when the model takes it.",
      });
    }
    this.settings = settings;
    this.cacheControl = booleanOption(
      settings.cacheControl,
      "cacheControl",
      readsAnthropicCacheControl(String(model.provider)),
    );
  }

  /**
   * `settings.supportsPart` when given. Otherwise parts given inline: passed on (the provider
   * package answers for its media types); parts given by remote URL: those the model's
   * `supportedUrls` lists for their media type.
   */
  supportsPart(part: ImagePart | FilePart): boolean | PromiseLike<boolean> {
    if (this.settings.supportsPart) return this.settings.supportsPart(part);
    const data = part.type === "image" ? part.image : part.data;
    if (isInlineData(data)) return true;
    const mediaType = part.type === "image" ? wireImageMediaType(part) : part.mediaType;
    const url = isUrl(data) ? data.href : urlHref(data as string);
    const supported = this.aiSDKModel.supportedUrls;
    if (supported === undefined) return true;
    if (typeof (supported as PromiseLike<unknown>).then === "function")
      return Promise.resolve(supported).then((urls) => isAISDKUrlSupported(urls, mediaType, url));
    return isAISDKUrlSupported(supported as AISDKSupportedUrls, mediaType, url);
  }

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const options = this.callOptions(call);
    const result = await retryAISDKCall(async () => {
      try {
        return await this.aiSDKModel.doGenerate(options);
      } catch (error) {
        throw this.convertError(error, call);
      }
    }, call);
    return convertAISDKGenerateResult(result);
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const options = this.callOptions(call);
    // Retries cover starting the stream (the HTTP response); a stream that fails midway is not replayed.
    const { stream } = await retryAISDKCall(async () => {
      try {
        return await this.aiSDKModel.doStream(options);
      } catch (error) {
        throw this.convertError(error, call);
      }
    }, call);
    yield* convertAISDKStream(stream, (error) => this.convertError(error, call));
  }

  private callOptions(call: LanguageModelCall): AISDKCallOptions {
    const tools = convertToAISDKTools(call.tools);
    const { prompt, lastParts } = convertToAISDKPromptParts(
      call.system,
      call.messages,
      this.aiSDKModel.specificationVersion,
    );
    const options: AISDKCallOptions = {
      prompt,
      ...(tools
        ? {
            tools,
            toolChoice:
              typeof call.toolChoice === "object"
                ? { type: "tool" as const, toolName: call.toolChoice.toolName }
                : { type: call.toolChoice ?? ("auto" as const) },
          }
        : {}),
      ...(call.maxOutputTokens === undefined ? {} : { maxOutputTokens: call.maxOutputTokens }),
      ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
      ...(call.responseFormat
        ? {
            responseFormat: {
              type: "json" as const,
              schema: call.responseFormat.schema as AISDKJSONSchema,
              ...(call.responseFormat.name === undefined ? {} : { name: call.responseFormat.name }),
              ...(call.responseFormat.description === undefined
                ? {}
                : { description: call.responseFormat.description }),
            },
          }
        : {}),
      ...(call.abortSignal ? { abortSignal: call.abortSignal } : {}),
      ...(this.settings.headers ? { headers: { ...this.settings.headers } } : {}),
      ...(this.settings.providerOptions ? { providerOptions: this.settings.providerOptions } : {}),
    };
    if (call.cacheBreakpoints && this.cacheControl)
      applyAISDKCacheBreakpoints(options, call.system, call.cacheBreakpoints, lastParts);
    return options;
  }

  private convertError(error: unknown, call: LanguageModelCall): unknown {
    return convertAISDKError(error, { provider: this.provider, modelId: this.modelId, abortSignal: call.abortSignal });
  }
}

/** A URL as the AI SDK prompt carries it (`new URL(text).href`), or as given when it does not parse. */
function urlHref(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}
