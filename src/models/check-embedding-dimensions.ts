import { EmbeddingDimensionError } from "../errors/embedding-dimension-error";

/**
 * Checks that every vector has `expected` dimensions (when it is known; otherwise the first
 * vector's length) and returns the length they share. `offset` is the position of the first
 * vector among all the values of the call, for the error.
 */
export function checkEmbeddingDimensions(
  embeddings: readonly number[][],
  expected: number | undefined,
  model: { provider: string; modelId: string },
  offset = 0,
): number | undefined {
  let length = expected;
  embeddings.forEach((vector, position) => {
    length ??= vector.length;
    if (vector.length !== length) {
      throw new EmbeddingDimensionError({
        provider: model.provider,
        modelId: model.modelId,
        expected: length,
        actual: vector.length,
        position: offset + position,
      });
    }
  });
  return length;
}
