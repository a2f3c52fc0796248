import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.TokenizerNotLoadedError";
const symbol = Symbol.for(marker);

/**
 * Tokens were counted synchronously (`estimateTokens`, `estimateMessagesTokens`) before the
 * encoding was loaded, in a runtime that can only load it asynchronously (the edge build:
 * Vercel Edge, Cloudflare Workers, browsers). `await loadTokenizer()` once first. The agent's
 * own runs load it themselves when they need it.
 */
export class TokenizerNotLoadedError extends AgentCoreError {
  private readonly [symbol] = true;
  /** The encoding that is not loaded yet: `"o200k_base"` or `"cl100k_base"`. */
  readonly encoding: string;

  constructor(options: { encoding: string }) {
    super({
      name: "TokenizerNotLoadedError",
      message:
        `The ${options.encoding} tokenizer is not loaded, and this runtime loads it only asynchronously: ` +
        `call \`await loadTokenizer(${options.encoding === "cl100k_base" ? '{ model: "gpt-4" }' : ""})\` once before counting tokens yourself ` +
        "(agent runs and streamText load it when they need it). The edge build counts with the table given to " +
        "provideTokenizer(), and without one with a bound of one token per UTF-8 byte.",
    });
    this.encoding = options.encoding;
  }

  static override isInstance(error: unknown): error is TokenizerNotLoadedError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
