import type { PromptCacheBreakpoints } from "../language-model";
import { MAX_CACHE_BREAKPOINTS, planCacheBreakpoints } from "../prompt-cache-plan";
import type { AISDKCallOptions, AISDKPromptMessage, AISDKProviderOptions } from "./ai-sdk-types";
import type { AISDKCacheablePart } from "./convert-to-ai-sdk-prompt";

/**
 * Whether an AI SDK model of this provider id reads Anthropic cache breakpoints from
 * `providerOptions.anthropic.cacheControl`: `@ai-sdk/anthropic`'s models (`"anthropic.messages"`),
 * and the Anthropic models of `@ai-sdk/google-vertex/anthropic` (`"vertex.anthropic.messages"`) and
 * `@ai-sdk/amazon-bedrock/anthropic` (`"bedrock.anthropic.messages"`), which are the same model
 * class. Bedrock's Converse models (`"amazon-bedrock"`) read `providerOptions.bedrock.cachePoint`
 * instead, and are not among them.
 */
export function readsAnthropicCacheControl(provider: string): boolean {
  return provider.startsWith("anthropic") || provider.includes(".anthropic.");
}

/**
 * Puts the call's cache breakpoints (`call.cacheBreakpoints`) into the AI SDK call options as
 * `@ai-sdk/anthropic` reads them, at the places the built-in Anthropic adapter puts `cache_control`
 * (`planCacheBreakpoints`): `providerOptions.anthropic.cacheControl` on the last cacheable part of
 * the chosen messages (`lastParts`), on each system message the system prompt is cut into, or on
 * the last tool. Provider options already on a part are kept (merged into). Breakpoints the caller
 * set itself (on a part's provider options, or `fromAISDK`'s `providerOptions.anthropic.cacheControl`,
 * Anthropic's automatic caching) count against the 4: agentcore adds no more than what is left.
 */
export function applyAISDKCacheBreakpoints(
  options: AISDKCallOptions,
  system: string | undefined,
  breakpoints: PromptCacheBreakpoints,
  lastParts: readonly (AISDKCacheablePart | undefined)[],
): void {
  const { prompt, tools } = options;
  const systemMessage = prompt[0]?.role === "system" && prompt[0].content === system ? prompt[0] : undefined;
  const plan = planCacheBreakpoints(breakpoints, {
    system: systemMessage ? system : undefined,
    hasTools: Boolean(tools?.length),
    canMark: (index) => lastParts[index] !== undefined && !hasCacheControl(lastParts[index]!.providerOptions),
    available: MAX_CACHE_BREAKPOINTS - breakpointsSetByCaller(options),
  });
  for (const index of plan.messages) {
    const part = lastParts[index]!;
    part.providerOptions = withCacheControl(part.providerOptions);
  }
  if (plan.system && systemMessage) {
    const messages = plan.system.map(
      ({ text, cached }): AISDKPromptMessage => ({
        role: "system",
        content: text,
        ...(cached ? { providerOptions: withCacheControl(undefined) } : {}),
      }),
    );
    prompt.splice(0, 1, ...messages);
  }
  if (plan.lastTool && tools?.length) {
    const last = tools[tools.length - 1]!;
    tools[tools.length - 1] = { ...last, providerOptions: withCacheControl(last.providerOptions) };
  }
}

/** Provider options with Anthropic's `cacheControl` added, the others (and the rest of `anthropic`) kept. */
function withCacheControl(providerOptions: AISDKProviderOptions | undefined): AISDKProviderOptions {
  return {
    ...providerOptions,
    anthropic: { ...providerOptions?.anthropic, cacheControl: { type: "ephemeral" } },
  };
}

function hasCacheControl(providerOptions: AISDKProviderOptions | undefined): boolean {
  const anthropic = providerOptions?.anthropic;
  return anthropic?.cacheControl != null || anthropic?.cache_control != null;
}

/** Breakpoints already in the call options: on parts, tools, and the call's own (automatic caching). */
function breakpointsSetByCaller(options: AISDKCallOptions): number {
  let count = hasCacheControl(options.providerOptions) ? 1 : 0;
  for (const message of options.prompt) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) if (hasCacheControl(part.providerOptions)) count++;
  }
  for (const tool of options.tools ?? []) if (hasCacheControl(tool.providerOptions)) count++;
  return count;
}
