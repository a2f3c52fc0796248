import type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "../embedding-model";
import { APICallError } from "../../errors/api-call-error";
import type { AISDKEmbeddingModel, AISDKProviderOptions } from "./ai-sdk-types";
import { convertAISDKError } from "./convert-ai-sdk-error";
import { retryAISDKCall } from "./retry-ai-sdk-call";
import { checkEmbeddingDimensions } from "../check-embedding-dimensions";
import { integerOption } from "../../errors/check-option";

/** Call settings of an AI SDK embedding model used through agentcore (`fromAISDK(model, settings)`). */
export interface AISDKEmbeddingModelSettings {
  /** Extra HTTP headers sent with every call. @default none */
  headers?: Record<string, string>;
  /** Provider-specific options passed to every call as is, e.g. `{ openai: { dimensions: 512 } }`. @default none */
  providerOptions?: AISDKProviderOptions;
  /**
   * Length every vector must have, else the call fails with an `EmbeddingDimensionError`. When
   * omitted, the length of the first vector the model answers, held to from then on.
   */
  dimensions?: number;
  /** Most values sent in one call, below the model's own `maxEmbeddingsPerCall`. @default the model's limit */
  maxValuesPerCall?: number;
}

/**
 * An AI SDK embedding model (spec v2, v3 or v4: `openai.embedding(...)` of `@ai-sdk/openai` 2 to 4)
 * as an agentcore `EmbeddingModel`. Values above the model's `maxEmbeddingsPerCall` go in several
 * calls, in order; each call is retried as the language models' are (`retryAISDKCall`) and its
 * errors converted the same way (`convertAISDKError`). The model's own package does the HTTP.
 */
export class AISDKEmbeddingModelAdapter implements EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly maxValuesPerCall?: number;
  /** Length of each vector: the `dimensions` setting, else the first answered vector's once known. */
  dimensions?: number;
  /** The AI SDK model this adapter calls. */
  readonly aiSDKModel: AISDKEmbeddingModel;
  private readonly settings: AISDKEmbeddingModelSettings;

  constructor(model: AISDKEmbeddingModel, settings: AISDKEmbeddingModelSettings = {}) {
    this.aiSDKModel = model;
    this.provider = String(model.provider).split(".")[0] || String(model.provider);
    this.modelId = String(model.modelId);
    this.settings = settings;
    this.dimensions = integerOption(settings.dimensions, "dimensions", undefined, 1);
    const cap = integerOption(settings.maxValuesPerCall, "maxValuesPerCall", undefined, 1);
    const limit = model.maxEmbeddingsPerCall;
    const own = typeof limit === "number" && Number.isInteger(limit) && limit > 0 ? limit : undefined;
    const chosen = cap === undefined ? own : Math.min(cap, own ?? cap);
    if (chosen !== undefined) this.maxValuesPerCall = chosen;
  }

  async doEmbed(call: EmbeddingModelCall): Promise<EmbeddingModelResult> {
    if (call.values.length === 0) return { embeddings: [] };
    const limit = await this.callLimit();
    const embeddings: number[][] = [];
    let inputTokens: number | undefined;
    for (let start = 0; start < call.values.length; start += limit) {
      const values = call.values.slice(start, start + limit);
      const result = await retryAISDKCall(async () => {
        try {
          return await this.aiSDKModel.doEmbed({
            values,
            ...(call.abortSignal ? { abortSignal: call.abortSignal } : {}),
            ...(this.settings.headers ? { headers: { ...this.settings.headers } } : {}),
            ...(this.settings.providerOptions ? { providerOptions: this.settings.providerOptions } : {}),
          });
        } catch (error) {
          throw convertAISDKError(error, {
            provider: this.provider,
            modelId: this.modelId,
            abortSignal: call.abortSignal,
          });
        }
      }, call);
      const vectors = this.checked(result?.embeddings, values.length);
      this.dimensions = checkEmbeddingDimensions(vectors, this.dimensions, this, start);
      embeddings.push(...vectors);
      const tokens = result?.usage?.tokens;
      if (typeof tokens === "number" && Number.isFinite(tokens) && tokens >= 0)
        inputTokens = (inputTokens ?? 0) + tokens;
    }
    return { embeddings, ...(inputTokens === undefined ? {} : { usage: { inputTokens } }) };
  }

  /** The model's `maxEmbeddingsPerCall` (which may be a promise) capped by `maxValuesPerCall`; unlimited when neither is given. */
  private async callLimit(): Promise<number> {
    const cap = this.settings.maxValuesPerCall ?? Number.POSITIVE_INFINITY;
    const limit = await this.aiSDKModel.maxEmbeddingsPerCall;
    return Math.min(
      cap,
      typeof limit === "number" && Number.isInteger(limit) && limit > 0 ? limit : Number.POSITIVE_INFINITY,
    );
  }

  /** One vector of numbers per value, or an `APICallError` that says what came back instead. */
  private checked(embeddings: unknown, expected: number): number[][] {
    if (
      Array.isArray(embeddings) &&
      embeddings.length === expected &&
      embeddings.every((vector) => Array.isArray(vector) && vector.every((value) => typeof value === "number"))
    )
      return embeddings as number[][];
    throw new APICallError({
      provider: this.provider,
      modelId: this.modelId,
      message: `${this.provider}/${this.modelId}: the embedding model answered ${Array.isArray(embeddings) ? embeddings.length : "no"} embeddings for ${expected} values.`,
      isRetryable: false,
    });
  }
}
