import type { EmbeddingModel } from "../embedding-model";
import { fromEmbedFunction, type EmbedFunction } from "../function-embedding-model";
import type { AISDKEmbeddingModel } from "./ai-sdk-types";
import { fromAISDK, isAISDKEmbeddingModel } from "./from-ai-sdk";

/**
 * An `embedder` option as agentcore's `EmbeddingModel`: an AI SDK embedding model (spec v2, v3 or
 * v4) is wrapped by `fromAISDK`, a plain function by `fromEmbedFunction`, an agentcore one (or
 * `undefined`) is returned as is.
 */
export function resolveEmbeddingModel(
  embedder: EmbeddingModel | AISDKEmbeddingModel | EmbedFunction | undefined,
): EmbeddingModel | undefined {
  if (typeof embedder === "function") return fromEmbedFunction(embedder);
  return embedder !== undefined && isAISDKEmbeddingModel(embedder)
    ? fromAISDK(embedder)
    : (embedder as EmbeddingModel | undefined);
}
