import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.MissingApiKeyError";
const symbol = Symbol.for(marker);

/**
 * A model provider was used without an API key. Raised at the first call to the model (never at
 * `new Agent`), naming the environment variable to set.
 */
export class MissingApiKeyError extends AgentCoreError {
  private readonly [symbol] = true;
  /** Provider id, e.g. `"openai"`. */
  readonly provider: string;
  /** The environment variable the provider reads its key from, e.g. `"OPENAI_API_KEY"`. */
  readonly environmentVariable: string;

  constructor(options: { provider: string; environmentVariable: string; factory?: string }) {
    const factory = options.factory ?? `create${options.provider[0]?.toUpperCase() ?? ""}${options.provider.slice(1)}`;
    super({
      name: "MissingApiKeyError",
      message:
        `No API key for the "${options.provider}" provider. Set the ${options.environmentVariable} environment variable, ` +
        `or pass \`apiKey\` to ${factory}({ apiKey }).`,
    });
    this.provider = options.provider;
    this.environmentVariable = options.environmentVariable;
  }

  static override isInstance(error: unknown): error is MissingApiKeyError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
