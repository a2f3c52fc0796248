import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.UnsupportedFeatureError";
const symbol = Symbol.for(marker);

/** An option names a feature this version of agentcore does not have yet. */
export class UnsupportedFeatureError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly feature: string;

  constructor(options: { feature: string; message: string }) {
    super({ name: "UnsupportedFeatureError", message: options.message });
    this.feature = options.feature;
  }

  static override isInstance(error: unknown): error is UnsupportedFeatureError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
