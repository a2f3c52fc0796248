/** One embedding request. */
export interface EmbeddingCall {
  /** Texts to embed, in order. */
  values: string[];
  abortSignal?: AbortSignal;
}

export interface EmbeddingResult {
  /** One vector per value, in the order of `values`. */
  embeddings: number[][];
  usage?: { tokens: number };
}

/** A text embedding model (used by semantic memory). */
export interface EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  /** Vector length, when known before the first call. */
  readonly dimensions?: number;
  /** Most values one call accepts; callers batch above it. */
  readonly maxValuesPerCall?: number;
  doEmbed(call: EmbeddingCall): Promise<EmbeddingResult>;
}
