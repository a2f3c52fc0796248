import type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "../models/embedding-model";

export interface MockEmbeddingModelOptions {
  /** Vector length. @default 64 */
  dimensions?: number;
  /** Most values per call (callers batch above it). @default 16 */
  maxValuesPerCall?: number;
}

/**
 * An offline, deterministic embedding model for tests and demos: hashed letter trigrams, so
 * texts sharing word fragments are close. Records every call in `calls`.
 */
export class MockEmbeddingModel implements EmbeddingModel {
  readonly provider = "mock";
  readonly modelId = "mock-trigram-embedding";
  readonly dimensions: number;
  readonly maxValuesPerCall: number;
  /** The values of every call, in order. */
  readonly calls: string[][] = [];

  constructor(options: MockEmbeddingModelOptions = {}) {
    this.dimensions = options.dimensions ?? 64;
    this.maxValuesPerCall = options.maxValuesPerCall ?? 16;
  }

  async doEmbed(call: EmbeddingModelCall): Promise<EmbeddingModelResult> {
    call.abortSignal?.throwIfAborted();
    this.calls.push([...call.values]);
    return { embeddings: call.values.map((value) => this.embed(value)) };
  }

  private embed(value: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    const text = ` ${value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ")} `;
    for (let index = 0; index + 3 <= text.length; index++) {
      let hash = 2166136261;
      for (let offset = 0; offset < 3; offset++)
        hash = Math.imul(hash ^ text.charCodeAt(index + offset), 16777619) >>> 0;
      vector[hash % this.dimensions]! += 1;
    }
    return vector;
  }
}
