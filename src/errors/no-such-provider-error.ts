import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.NoSuchProviderError";
const symbol = Symbol.for(marker);

/** A `"provider/model"` string names a provider prefix nobody registered. */
export class NoSuchProviderError extends AgentCoreError {
  private readonly [symbol] = true;
  readonly providerId: string;
  readonly modelId: string;
  readonly availableProviders: string[];

  constructor(options: { providerId: string; modelId: string; availableProviders: string[] }) {
    const known = options.availableProviders.length
      ? options.availableProviders.map((name) => `"${name}"`).join(", ")
      : "none";
    super({
      name: "NoSuchProviderError",
      message:
        `Unknown model provider "${options.providerId}" in "${options.providerId}/${options.modelId}". ` +
        `Known providers: ${known}. Register another with registerProvider(), or pass a LanguageModel instance as \`model\`.`,
    });
    this.providerId = options.providerId;
    this.modelId = options.modelId;
    this.availableProviders = options.availableProviders;
  }

  static override isInstance(error: unknown): error is NoSuchProviderError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
