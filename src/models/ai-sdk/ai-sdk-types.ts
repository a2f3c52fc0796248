import type { AISDKSupportedUrls } from "./ai-sdk-supported-urls";
// Structural types of an AI SDK language model (`@ai-sdk/provider`'s `LanguageModelV2` of `ai` 5
// and `LanguageModelV3` of `ai` 6), written out here so agentcore never imports `ai` or
// `@ai-sdk/*`. Only what the adapter reads or sends is spelled out; what comes back is loose on
// purpose (one type for both versions) and is checked field by field at runtime.

/** The JSON Schema of a function tool's input, as the AI SDK takes it. */
export type AISDKJSONSchema = Record<string, unknown>;

/** A JSON value, as the AI SDK types provider options. */
export type AISDKJSONValue = null | string | number | boolean | AISDKJSONValue[] | { [key: string]: AISDKJSONValue };

/** Provider-specific options, keyed by provider name (`{ openai: { reasoningEffort: "low" } }`). */
export type AISDKProviderOptions = Record<string, { [key: string]: AISDKJSONValue }>;

export type AISDKToolResultOutput =
  | { type: "text"; value: string }
  | {
      type: "content";
      /**
       * Text parts, and image parts at runtime (v3's `image-data` / `image-url`, v2's `media`): only
       * text is common to both versions' types, so the image parts are cast (convert-to-ai-sdk-prompt.ts).
       */
      value: { type: "text"; text: string }[];
    };

/** A file of a prompt (images are files of an `image/*` media type): bytes, base64 or a URL. */
export type AISDKFilePart = {
  type: "file";
  data: Uint8Array | string | URL;
  mediaType: string;
  filename?: string;
  providerOptions?: AISDKProviderOptions;
};

/** A text part of a prompt message. */
export type AISDKTextPart = { type: "text"; text: string; providerOptions?: AISDKProviderOptions };

/**
 * One message of an AI SDK prompt (the parts agentcore's messages map to). `providerOptions` on a
 * system message or a part carry, among others, `@ai-sdk/anthropic`'s cache breakpoints
 * (`{ anthropic: { cacheControl: { type: "ephemeral" } } }`).
 */
export type AISDKPromptMessage =
  | { role: "system"; content: string; providerOptions?: AISDKProviderOptions }
  | { role: "user"; content: (AISDKTextPart | AISDKFilePart)[] }
  | {
      role: "assistant";
      content: (
        | AISDKTextPart
        | { type: "reasoning"; text: string; providerOptions?: AISDKProviderOptions }
        | {
            type: "tool-call";
            toolCallId: string;
            toolName: string;
            input: unknown;
            providerOptions?: AISDKProviderOptions;
          }
      )[];
    }
  | {
      role: "tool";
      content: {
        type: "tool-result";
        toolCallId: string;
        toolName: string;
        output: AISDKToolResultOutput;
        providerOptions?: AISDKProviderOptions;
      }[];
    };

/** What agentcore sends to `doGenerate` / `doStream` (a subset of the AI SDK's call options, valid for v2 and v3). */
export interface AISDKCallOptions {
  prompt: AISDKPromptMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  tools?: {
    type: "function";
    name: string;
    description?: string;
    inputSchema: AISDKJSONSchema;
    providerOptions?: AISDKProviderOptions;
  }[];
  toolChoice?: { type: "auto" };
  /** Structured output: the provider's own JSON mode (OpenAI's `json_schema`, Anthropic's JSON tool, ...). */
  responseFormat?: { type: "json"; schema?: AISDKJSONSchema; name?: string; description?: string };
  abortSignal?: AbortSignal;
  headers?: Record<string, string | undefined>;
  providerOptions?: AISDKProviderOptions;
}

/** A part of `doGenerate`'s `content` or of `doStream`'s stream: read by `type`, fields checked at runtime. */
export interface AISDKPart {
  readonly type: string;
}

/** `doGenerate`'s answer, v2 or v3 (usage and finish reason differ: see `ai-sdk-result.ts`). */
export interface AISDKGenerateResult {
  content: ReadonlyArray<AISDKPart>;
  finishReason: unknown;
  usage: unknown;
  response?: { id?: string; modelId?: string };
  /** Provider-specific metadata (`@ai-sdk/anthropic` 2 gives its cache writes there). */
  providerMetadata?: unknown;
}

/**
 * A language model of an AI SDK provider package (`@ai-sdk/openai`, `@ai-sdk/google`,
 * `@ai-sdk/mistral`, ...), specification `"v2"` (`ai` 5) or `"v3"` (`ai` 6). Pass one as `model`
 * wherever agentcore takes a model.
 */
export interface AISDKLanguageModel {
  readonly specificationVersion: "v2" | "v3";
  readonly provider: string;
  readonly modelId: string;
  /** The URLs the provider takes as they are, by media type pattern (`ai-sdk-supported-urls.ts`). */
  readonly supportedUrls?: PromiseLike<AISDKSupportedUrls> | AISDKSupportedUrls;
  doGenerate(options: AISDKCallOptions): PromiseLike<AISDKGenerateResult>;
  doStream(options: AISDKCallOptions): PromiseLike<{ stream: ReadableStream<AISDKPart> }>;
}
