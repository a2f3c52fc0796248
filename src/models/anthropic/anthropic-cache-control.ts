import type Anthropic from "@anthropic-ai/sdk";
import type { PromptCacheBreakpoints } from "../language-model";
import { planCacheBreakpoints } from "../prompt-cache-plan";

export { MAX_CACHE_BREAKPOINTS } from "../prompt-cache-plan";

type ContentBlock = Anthropic.Messages.ContentBlockParam;
type TextBlock = Anthropic.Messages.TextBlockParam;
type Tool = Anthropic.Messages.Tool;

/** What a request body holds that breakpoints go on. */
export interface CacheableRequest {
  system: string | TextBlock[] | undefined;
  tools: Tool[] | undefined;
}

/**
 * Puts Anthropic `cache_control: { type: "ephemeral" }` breakpoints where the call says its prefix
 * is stable (`call.cacheBreakpoints`), at most `MAX_CACHE_BREAKPOINTS`, where
 * `planCacheBreakpoints` places them (the messages' newest first, then the system prompt's stable
 * prefixes, else the last tool). Anthropic caches the prompt read as tools, then system, then
 * messages, up to each breakpoint; a later request whose prefix up to a breakpoint is the same reads
 * it from the cache (it also looks back up to 20 blocks before a breakpoint for a prefix cached
 * earlier). A prefix shorter than the model's minimum (1024 tokens for most models, 2048 or 4096
 * for some) is simply not cached. `system` becomes text blocks cut at its breakpoints.
 */
export function applyCacheBreakpoints(
  request: CacheableRequest,
  breakpoints: PromptCacheBreakpoints,
  lastBlocks: readonly (ContentBlock | undefined)[],
): void {
  const plan = planCacheBreakpoints(breakpoints, {
    system: typeof request.system === "string" ? request.system : undefined,
    hasTools: Boolean(request.tools?.length),
    canMark: (index) => lastBlocks[index] !== undefined && !hasCacheControl(lastBlocks[index]!),
  });
  for (const index of plan.messages) markBlock(lastBlocks[index]!);
  if (plan.system)
    request.system = plan.system.map(
      ({ text, cached }): TextBlock =>
        cached ? { type: "text", text, cache_control: { type: "ephemeral" } } : { type: "text", text },
    );
  if (plan.lastTool && request.tools?.length) markBlock(request.tools[request.tools.length - 1]!);
}

function markBlock(block: ContentBlock | Tool): void {
  (block as { cache_control?: { type: "ephemeral" } }).cache_control = { type: "ephemeral" };
}

function hasCacheControl(block: ContentBlock): boolean {
  return (block as { cache_control?: unknown }).cache_control != null;
}
