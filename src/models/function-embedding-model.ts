import { integerOption } from "../errors/check-option";
import { MemoryProviderError } from "../errors/memory-provider-error";
import { checkEmbeddingDimensions } from "./check-embedding-dimensions";
import type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "./embedding-model";

/** Embeds texts: one vector per text, in order. Any client, any model; its retries are its own. */
export type EmbedFunction = (texts: string[], options: { abortSignal?: AbortSignal }) => Promise<number[][]>;

export interface EmbedFunctionOptions {
  /** Name reported in errors and events. @default "function" */
  modelId?: string;
  /**
   * Length every vector must have, else an `EmbeddingDimensionError`. When omitted, the length
   * of the first vector answered, held to from then on.
   */
  dimensions?: number;
  /** Most texts passed in one call; longer lists go in several, in order. @default 96 */
  maxValuesPerCall?: number;
}

/**
 * A plain `(texts) => Promise<number[][]>` as an agentcore `EmbeddingModel`: batched, its answer
 * checked (one vector of finite numbers a text, all of one length). Passing the function itself as
 * `embedder` does the same with the defaults.
 *
 * ```ts
 * const embedder = fromEmbedFunction(async (texts) => texts.map((text) => [text.length, 1]), { dimensions: 2 });
 * ```
 */
export function fromEmbedFunction(embed: EmbedFunction, options: EmbedFunctionOptions = {}): EmbeddingModel {
  return new FunctionEmbeddingModel(embed, options);
}

class FunctionEmbeddingModel implements EmbeddingModel {
  readonly provider = "function";
  readonly modelId: string;
  readonly maxValuesPerCall: number;
  dimensions: number | undefined;

  constructor(
    private readonly embed: EmbedFunction,
    options: EmbedFunctionOptions,
  ) {
    this.modelId = options.modelId ?? "function";
    this.dimensions = integerOption(options.dimensions, "dimensions", undefined, 1);
    this.maxValuesPerCall = integerOption(options.maxValuesPerCall, "maxValuesPerCall", 96, 1);
  }

  async doEmbed(call: EmbeddingModelCall): Promise<EmbeddingModelResult> {
    const embeddings: number[][] = [];
    for (let start = 0; start < call.values.length; start += this.maxValuesPerCall) {
      call.abortSignal?.throwIfAborted();
      const values = call.values.slice(start, start + this.maxValuesPerCall);
      const vectors = await this.embed(values, call.abortSignal ? { abortSignal: call.abortSignal } : {});
      if (!Array.isArray(vectors) || vectors.length !== values.length || !vectors.every(isVector)) {
        throw new MemoryProviderError({
          provider: `${this.provider}/${this.modelId}`,
          operation: "embed",
          message: `The embed function returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${values.length} texts (or vectors that are not arrays of finite numbers).`,
        });
      }
      this.dimensions = checkEmbeddingDimensions(vectors, this.dimensions, this, start);
      embeddings.push(...vectors);
    }
    return { embeddings };
  }
}

function isVector(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((number) => typeof number === "number" && Number.isFinite(number))
  );
}
