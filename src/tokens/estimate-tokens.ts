import type { AgentMessage } from "../messages/agent-message";
import type { LanguageModel, ToolDefinition } from "../models/language-model";
import { REPLY_PRIMING_TOKENS, rawMessageTokens, rawSystemTokens, rawToolTokens } from "./token-count-cache";
import { countTextTokens, loadEncodingAsync, tokenizerFor } from "./tokenizer";

/** Which model's tokenizer to count with. */
export interface EstimateTokensOptions {
  /**
   * A model id (`"gpt-4o"`, `"openai/gpt-4o"`) or a `LanguageModel`. Picks the encoding (o200k or
   * cl100k) and, for non-OpenAI models, a safety factor of 1.15. Omitted: o200k, exact.
   */
  model?: string | Pick<LanguageModel, "provider" | "modelId">;
}

/**
 * Tokens of a piece of text. Without a model (or with an OpenAI model) this equals
 * gpt-tokenizer's `encode(text).length`; special tokens such as `<|endoftext|>` count as text.
 */
export function estimateTokens(text: string, options: EstimateTokensOptions = {}): number {
  const profile = tokenizerFor(options.model);
  const tokens = countTextTokens(text, profile.encoding);
  return profile.factor === 1 ? tokens : Math.ceil(tokens * profile.factor);
}

export interface EstimateMessagesTokensOptions extends EstimateTokensOptions {
  /** The system prompt sent with the messages (instructions, facts, summary, recalled memories). */
  system?: string;
  /** The tool definitions sent with the messages. */
  tools?: readonly ToolDefinition[];
}

/**
 * Input tokens of a request: each message with its chat-format overhead (4 tokens: the
 * delimiters and the role), tool calls (name, JSON arguments, 3 tokens each), tool results (content
 * and name), the system prompt as a message, tool definitions (name, description, JSON schema,
 * 9 tokens each) and 3 tokens that prime the reply. Counts per message are cached.
 */
export function estimateMessagesTokens(
  messages: readonly AgentMessage[],
  options: EstimateMessagesTokensOptions = {},
): number {
  const profile = tokenizerFor(options.model);
  let tokens = REPLY_PRIMING_TOKENS + rawSystemTokens(options.system, profile.encoding);
  if (options.tools?.length) tokens += rawToolTokens(options.tools, profile.encoding);
  for (const message of messages) tokens += rawMessageTokens(message, profile.encoding, profile.imageRule);
  return profile.factor === 1 ? tokens : Math.ceil(tokens * profile.factor);
}

/**
 * Loads the tokenizer a model counts with (o200k, or cl100k for gpt-4 and gpt-3.5), once per
 * encoding; concurrent calls share one load. Counting never needs it in Node, where the first
 * count loads the encoding synchronously. On the edge (Vercel Edge, Cloudflare Workers,
 * browsers) the encoding can only be loaded asynchronously: call this once before
 * `estimateTokens` or `estimateMessagesTokens`, which otherwise throw `TokenizerNotLoadedError`.
 * Agent runs and `streamText` load it themselves, and only when a window has to count.
 */
export async function loadTokenizer(options: EstimateTokensOptions = {}): Promise<void> {
  await loadEncodingAsync(tokenizerFor(options.model).encoding);
}
