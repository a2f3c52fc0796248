import type OpenAI from "openai";
import type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "../embedding-model";
import { toAPICallError } from "../to-api-call-error";
import { checkEmbeddingDimensions } from "../check-embedding-dimensions";
import { integerOption } from "../../errors/check-option";

/** Vector length of OpenAI's embedding models when `dimensions` is not set. */
const DEFAULT_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** The most inputs OpenAI accepts in one embeddings request; larger lists are split. */
const MAX_VALUES_PER_REQUEST = 2048;

/** The embedding model `provider.embedding()` uses when given no id. */
export const DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small";

export interface OpenAIEmbeddingModelOptions {
  /**
   * Shorter vectors (`text-embedding-3-*` only). Every answered vector must have this length (the
   * model's own for OpenAI's models otherwise), or the call fails with an `EmbeddingDimensionError`.
   * Model default when omitted.
   */
  dimensions?: number;
  /** Most inputs sent in one request; longer lists go in several, in order. @default 2048 (OpenAI's limit) */
  maxValuesPerCall?: number;
}

/** An embedding model behind the OpenAI embeddings API (or an OpenAI-compatible server). */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly dimensions: number | undefined;
  readonly maxValuesPerCall: number;
  private readonly requestedDimensions: number | undefined;
  private readonly getClient: () => Promise<OpenAI>;

  constructor(
    modelId: string,
    config: { provider: string; getClient: () => Promise<OpenAI> },
    options: OpenAIEmbeddingModelOptions = {},
  ) {
    this.modelId = modelId;
    this.provider = config.provider;
    this.getClient = config.getClient;
    this.requestedDimensions = options.dimensions;
    this.dimensions = options.dimensions ?? DEFAULT_DIMENSIONS[modelId];
    this.maxValuesPerCall = integerOption(options.maxValuesPerCall, "maxValuesPerCall", MAX_VALUES_PER_REQUEST, 1);
  }

  async doEmbed(call: EmbeddingModelCall): Promise<EmbeddingModelResult> {
    if (call.values.length === 0) return { embeddings: [], usage: { inputTokens: 0 } };
    const client = await this.getClient();
    const embeddings: number[][] = [];
    let inputTokens = 0;
    let dimensions = this.dimensions;
    for (let offset = 0; offset < call.values.length; offset += this.maxValuesPerCall) {
      const values = call.values.slice(offset, offset + this.maxValuesPerCall);
      let response: OpenAI.Embeddings.CreateEmbeddingResponse;
      try {
        response = await client.embeddings.create(
          {
            model: this.modelId,
            input: values,
            // Floats, not the SDK's default base64, so compatible servers that ignore the field agree.
            encoding_format: "float",
            ...(this.requestedDimensions === undefined ? {} : { dimensions: this.requestedDimensions }),
          },
          {
            ...(call.abortSignal ? { signal: call.abortSignal } : {}),
            ...(call.maxRetries === undefined ? {} : { maxRetries: call.maxRetries }),
          },
        );
      } catch (error) {
        throw toAPICallError(error, { provider: this.provider, modelId: this.modelId, abortSignal: call.abortSignal });
      }
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      const vectors = ordered.map((item) => decodeEmbedding(item.embedding as unknown));
      dimensions = checkEmbeddingDimensions(vectors, dimensions, this, offset);
      embeddings.push(...vectors);
      inputTokens += response.usage?.prompt_tokens ?? 0;
    }
    return { embeddings, usage: { inputTokens } };
  }
}

/** A float array as is; a base64 string (little-endian float32) decoded. */
export function decodeEmbedding(embedding: unknown): number[] {
  if (Array.isArray(embedding)) return embedding as number[];
  if (typeof embedding === "string") {
    const binary = atob(embedding);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    const view = new DataView(bytes.buffer);
    const result: number[] = new Array(bytes.byteLength / 4);
    for (let index = 0; index < result.length; index++) result[index] = view.getFloat32(index * 4, true);
    return result;
  }
  return [];
}
