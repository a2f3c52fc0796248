import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.EmbeddingDimensionError";
const symbol = Symbol.for(marker);

/**
 * An embedding model answered vectors of another length than expected: the `dimensions` it was
 * configured with, or the length of the vectors it gave before (a model switched behind the same
 * name, a server ignoring `dimensions`). Vectors of two lengths cannot be compared, so nothing is
 * stored. `expected` and `actual` are lengths; `position` is the value whose vector was wrong.
 */
export class EmbeddingDimensionError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly provider: string;
  readonly modelId: string;
  readonly expected: number;
  readonly actual: number;
  readonly position: number;

  constructor(options: { provider: string; modelId: string; expected: number; actual: number; position: number }) {
    super({
      name: "EmbeddingDimensionError",
      message:
        `${options.provider}/${options.modelId} answered a vector of ${options.actual} dimensions for value ${options.position}, ` +
        `expected ${options.expected}. Set the embedder's \`dimensions\` to what the model returns, or use one model for every memory of an index.`,
    });
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.expected = options.expected;
    this.actual = options.actual;
    this.position = options.position;
  }

  static override isInstance(error: unknown): error is EmbeddingDimensionError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
