import type OpenAI from "openai";
import type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "../embedding-model";
import { toAPICallError } from "../to-api-call-error";

/** Vector length of OpenAI's embedding models when `dimensions` is not set. */
const DEFAULT_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

/** The most inputs OpenAI accepts in one embeddings request; larger lists are split. */
const MAX_VALUES_PER_REQUEST = 2048;

export interface OpenAIEmbeddingModelOptions {
  /** Shorter vectors (`text-embedding-3-*` only). Model default when omitted. */
  dimensions?: number;
}

/** An embedding model behind the OpenAI embeddings API (or an OpenAI-compatible server). */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly dimensions: number | undefined;
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
  }

  async doEmbed(call: EmbeddingModelCall): Promise<EmbeddingModelResult> {
    if (call.values.length === 0) return { embeddings: [], usage: { inputTokens: 0 } };
    const client = await this.getClient();
    const embeddings: number[][] = [];
    let inputTokens = 0;
    for (let offset = 0; offset < call.values.length; offset += MAX_VALUES_PER_REQUEST) {
      const values = call.values.slice(offset, offset + MAX_VALUES_PER_REQUEST);
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
      for (const item of ordered) embeddings.push(decodeEmbedding(item.embedding as unknown));
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
