import { MemoryProviderError } from "../errors/memory-provider-error";
import type { EmbeddingModel } from "../models/embedding-model";
import type { RecallReadOptions } from "./memory-provider";
import { checkEmbeddingDimensions } from "../models/check-embedding-dimensions";

/**
 * Embeds `values` in batches of the model's `maxValuesPerCall`, checking one vector comes back per
 * value and all have the model's `dimensions` (or, when it declares none, one length): else an
 * `EmbeddingDimensionError`.
 */
export async function embedAll(
  model: EmbeddingModel,
  values: string[],
  abortSignal?: AbortSignal,
  /** Told each call's usage, when the model reports it. */
  onUsage?: RecallReadOptions["onUsage"],
): Promise<number[][]> {
  const batch = Math.max(1, model.maxValuesPerCall ?? 96);
  const vectors: number[][] = [];
  let dimensions = model.dimensions;
  for (let start = 0; start < values.length; start += batch) {
    const slice = values.slice(start, start + batch);
    const result = await model.doEmbed({ values: slice, ...(abortSignal ? { abortSignal } : {}) });
    if (
      !Array.isArray(result?.embeddings) ||
      result.embeddings.length !== slice.length ||
      !result.embeddings.every(isVector)
    ) {
      throw new MemoryProviderError({
        provider: `${model.provider}/${model.modelId}`,
        operation: "embed",
        message: `The embedding model returned ${Array.isArray(result?.embeddings) ? result.embeddings.length : "no"} vectors for ${slice.length} values (or vectors that are not arrays of finite numbers).`,
      });
    }
    dimensions = checkEmbeddingDimensions(result.embeddings, dimensions, model, start);
    if (onUsage && result.usage) onUsage(result.usage, model);
    vectors.push(...result.embeddings);
  }
  return vectors;
}

function isVector(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((number) => typeof number === "number" && Number.isFinite(number))
  );
}
