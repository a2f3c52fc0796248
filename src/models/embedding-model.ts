/** One embedding request. */
export interface EmbeddingModelCall {
  /** Texts to embed; the result has one embedding per value, in order. */
  values: string[];
  /** Stops the request. */
  abortSignal?: AbortSignal;
  /** Retries of the provider SDK (the one retry layer). Provider default when omitted. */
  maxRetries?: number;
}

export interface EmbeddingModelResult {
  /** One vector per input value, in the order of `values`. */
  embeddings: number[][];
  usage?: { inputTokens: number };
}

/** A text embedding model (used by semantic memory). */
export interface EmbeddingModel {
  /** Provider id, e.g. `"openai"`. */
  readonly provider: string;
  /** Model id as the provider knows it, e.g. `"text-embedding-3-small"`. */
  readonly modelId: string;
  /** Length of each vector, when known in advance. */
  readonly dimensions?: number;
  /** Most values one call accepts; callers batch above it. Unlimited when omitted. */
  readonly maxValuesPerCall?: number;
  doEmbed(call: EmbeddingModelCall): Promise<EmbeddingModelResult>;
}
