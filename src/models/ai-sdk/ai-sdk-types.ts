import type { AISDKSupportedUrls } from "./ai-sdk-supported-urls";

// Structural types of an AI SDK language model (`@ai-sdk/provider`'s `LanguageModelV2` of `ai` 5,
// `LanguageModelV3` of `ai` 6 and `LanguageModelV4` of `ai` 7) and embedding model, written out
// here so agentcore never imports `ai` or `@ai-sdk/*`. Only what the adapter reads or sends is
// spelled out; what comes back is loose on purpose (one type for every version) and is checked
// field by field at runtime.

/** The specification versions of AI SDK models agentcore takes. */
export type AISDKSpecificationVersion = "v2" | "v3" | "v4";

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
       * Text parts, and file parts at runtime (v4's `file`, v3's `image-data` / `image-url` /
       * `file-data` / `file-url`, v2's `media`): only text is common to every version's types, so the
       * file parts are cast (convert-to-ai-sdk-prompt.ts).
       */
      value: { type: "text"; text: string }[];
    };

/**
 * A file's data in spec v4: tagged, `{ type: "data", data }` (bytes or base64) or `{ type: "url", url }`
 * (v4 also has `reference` and `text`, which agentcore does not send).
 */
export type AISDKFileData = { type: "data"; data: Uint8Array | string } | { type: "url"; url: URL };

/**
 * A file of a prompt (images are files of an `image/*` media type). Its `data` is bytes, base64 or
 * a `URL` for v2 and v3, and the same tagged (`AISDKFileData`) for v4: no one type is both, and a
 * model of either line must accept these call options, so `data` is typed `never` here and the
 * value cast where it is made (convert-to-ai-sdk-prompt.ts).
 */
export type AISDKFilePart = {
  type: "file";
  data: never;
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

/** What agentcore sends to `doGenerate` / `doStream` (a subset of the AI SDK's call options, valid for v2, v3 and v4). */
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
  toolChoice?: { type: "auto" | "none" | "required" } | { type: "tool"; toolName: string };
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

/** `doGenerate`'s answer, v2, v3 or v4 (usage and finish reason differ from v2 on: see `ai-sdk-result.ts`). */
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
 * `@ai-sdk/mistral`, ...), specification `"v2"` (`ai` 5), `"v3"` (`ai` 6) or `"v4"` (`ai` 7). Pass
 * one as `model` wherever agentcore takes a model.
 */
export interface AISDKLanguageModel {
  readonly specificationVersion: AISDKSpecificationVersion;
  readonly provider: string;
  readonly modelId: string;
  /** The URLs the provider takes as they are, by media type pattern (`ai-sdk-supported-urls.ts`). */
  readonly supportedUrls?: PromiseLike<AISDKSupportedUrls> | AISDKSupportedUrls;
  doGenerate(options: AISDKCallOptions): PromiseLike<AISDKGenerateResult>;
  doStream(options: AISDKCallOptions): PromiseLike<{ stream: ReadableStream<AISDKPart> }>;
}

/** What agentcore sends to an AI SDK embedding model's `doEmbed` (the same in v2, v3 and v4). */
export interface AISDKEmbedOptions {
  values: string[];
  abortSignal?: AbortSignal;
  headers?: Record<string, string>;
  providerOptions?: AISDKProviderOptions;
}

/**
 * An embedding model of an AI SDK provider package (`openai.embedding("text-embedding-3-small")`,
 * `google.textEmbedding(...)`, ...), specification `"v2"`, `"v3"` or `"v4"`. `fromAISDK` makes it
 * an agentcore `EmbeddingModel`; pass one as `embedder` wherever agentcore takes one.
 */
export interface AISDKEmbeddingModel {
  readonly specificationVersion: AISDKSpecificationVersion;
  readonly provider: string;
  readonly modelId: string;
  /** Most values one call takes (a number, or a promise of one); unlimited when undefined. */
  readonly maxEmbeddingsPerCall: PromiseLike<number | undefined> | number | undefined;
  doEmbed(options: AISDKEmbedOptions): PromiseLike<{ embeddings: number[][]; usage?: { tokens: number } }>;
}
