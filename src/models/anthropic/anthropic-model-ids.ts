/**
 * Short model names (as used in docs and older examples) and the model ids they resolve to.
 * Ids not in this table are sent as written, so an exact (dated) id always reaches the API
 * unchanged. Legacy names of retired models resolve to the current model of the same tier,
 * following the model list of `@anthropic-ai/sdk` 1.16. Override or extend it per provider with
 * `createAnthropic({ modelAliases })`, or edit this object at startup.
 */
export const ANTHROPIC_MODEL_ALIASES: Record<string, string> = {
  // Tier names: the newest model of each tier.
  "claude-opus": "claude-opus-5-5",
  "claude-sonnet": "claude-sonnet-5-5",
  "claude-haiku": "claude-haiku-5-5",
  // Retired models named in older docs: the current model of the same tier.
  "claude-3-opus": "claude-opus-5-5",
  "claude-opus-4": "claude-opus-5-5",
  "claude-opus-4-0": "claude-opus-5-5",
  "claude-opus-4-1": "claude-opus-5-5",
  "claude-3-sonnet": "claude-sonnet-5-5",
  "claude-3-5-sonnet": "claude-sonnet-5-5",
  "claude-3-5-sonnet-latest": "claude-sonnet-5-5",
  "claude-3-7-sonnet": "claude-sonnet-5-5",
  "claude-3-7-sonnet-latest": "claude-sonnet-5-5",
  "claude-sonnet-4": "claude-sonnet-5-5",
  "claude-sonnet-4-0": "claude-sonnet-5-5",
  "claude-sonnet-4-5": "claude-sonnet-5-5",
  "claude-3-haiku": "claude-haiku-5-5",
  "claude-3-5-haiku": "claude-haiku-5-5",
  "claude-3-5-haiku-latest": "claude-haiku-5-5",
};

/** Resolves a short name through the aliases; other ids pass through unchanged. */
export function resolveAnthropicModelId(
  modelId: string,
  aliases: Record<string, string> = ANTHROPIC_MODEL_ALIASES,
): string {
  return Object.hasOwn(aliases, modelId) ? aliases[modelId]! : modelId;
}

/**
 * Default `max_tokens` (the Messages API requires one) by model family, first match wins. Values
 * stay at or below 16384 so that non-streaming calls pass the SDK's 10-minute guard (which
 * refuses non-streaming requests above ~21333 tokens); pass `maxOutputTokens` for more.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS: ReadonlyArray<readonly [pattern: RegExp, maxTokens: number]> = [
  [/^claude-3-(opus|sonnet|haiku)/, 4096],
  [/^claude-3-5-/, 8192],
  [/^claude-/, 16384],
];

/** Used when no family matches (e.g. a non-Claude model behind a compatible gateway). */
export const ANTHROPIC_FALLBACK_MAX_TOKENS = 4096;

/** The default `max_tokens` of a (resolved) model id. */
export function defaultAnthropicMaxTokens(modelId: string): number {
  for (const [pattern, maxTokens] of ANTHROPIC_DEFAULT_MAX_TOKENS) if (pattern.test(modelId)) return maxTokens;
  return ANTHROPIC_FALLBACK_MAX_TOKENS;
}
