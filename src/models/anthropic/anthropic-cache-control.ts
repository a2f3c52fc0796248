import type Anthropic from "@anthropic-ai/sdk";
import type { PromptCacheBreakpoints } from "../language-model";

type ContentBlock = Anthropic.Messages.ContentBlockParam;
type TextBlock = Anthropic.Messages.TextBlockParam;
type Tool = Anthropic.Messages.Tool;

/** Anthropic's documented maximum of `cache_control` breakpoints in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** What a request body holds that breakpoints go on. */
export interface CacheableRequest {
  system: string | TextBlock[] | undefined;
  tools: Tool[] | undefined;
}

/**
 * Puts Anthropic `cache_control: { type: "ephemeral" }` breakpoints where the call says its prefix
 * is stable (`call.cacheBreakpoints`), at most `MAX_CACHE_BREAKPOINTS`. Anthropic caches the
 * prompt read as tools, then system, then messages, up to each breakpoint; a later request whose
 * prefix up to a breakpoint is the same reads it from the cache (it also looks back up to 20
 * blocks before a breakpoint for a prefix cached earlier). A prefix shorter than the model's
 * minimum (1024 tokens for most models, 2048 or 4096 for some) is simply not cached.
 *
 * In order of preference: the messages' breakpoints, newest first (the last message, written
 * for the next request; the end of the previous request, read from the cache even when more than
 * 20 blocks were added since), then the system prompt's stable prefixes (the instructions, shared
 * by every session of the agent; then with the facts block), then, when the system prompt has
 * none, the last tool definition. `system` becomes text blocks cut at its breakpoints.
 */
export function applyCacheBreakpoints(
  request: CacheableRequest,
  breakpoints: PromptCacheBreakpoints,
  lastBlocks: readonly (ContentBlock | undefined)[],
): void {
  let left = MAX_CACHE_BREAKPOINTS;
  for (const index of [...new Set(breakpoints.messages)].sort((a, b) => b - a)) {
    const block = lastBlocks[index];
    if (left === 0 || block === undefined || hasCacheControl(block)) continue;
    markBlock(block);
    left--;
  }
  const system = typeof request.system === "string" ? request.system : undefined;
  const cuts = system === undefined ? [] : systemCuts(system, breakpoints.system).slice(0, left);
  if (system !== undefined && cuts.length > 0) {
    request.system = systemBlocks(system, cuts);
    left -= cuts.length;
  } else if (left > 0 && request.tools?.length) {
    markBlock(request.tools[request.tools.length - 1]!);
  }
}

/** The valid cut points of `system`, increasing and each inside it. */
function systemCuts(system: string, lengths: readonly number[]): number[] {
  const cuts = [...new Set(lengths)].filter(
    (length) => Number.isInteger(length) && length > 0 && length <= system.length,
  );
  return cuts.sort((a, b) => a - b);
}

/** `system` cut into text blocks at `cuts`, a breakpoint at the end of each block before a cut. */
function systemBlocks(system: string, cuts: readonly number[]): TextBlock[] {
  const blocks: TextBlock[] = [];
  let start = 0;
  for (const end of [...cuts, system.length]) {
    // Sections are joined by a blank line: the block after a cut leaves it out (the API refuses empty text).
    const piece = system.slice(start, end);
    const text = start === 0 ? piece : piece.replace(/^\n\n/, "");
    if (text.trim() !== "") {
      blocks.push(end === system.length && !cuts.includes(end) ? { type: "text", text } : cached(text));
    } else if (blocks.length > 0 && cuts.includes(end)) {
      blocks[blocks.length - 1] = cached(blocks[blocks.length - 1]!.text);
    }
    start = end;
  }
  return blocks;
}

function cached(text: string): TextBlock {
  return { type: "text", text, cache_control: { type: "ephemeral" } };
}

function markBlock(block: ContentBlock | Tool): void {
  (block as { cache_control?: { type: "ephemeral" } }).cache_control = { type: "ephemeral" };
}

function hasCacheControl(block: ContentBlock): boolean {
  return (block as { cache_control?: unknown }).cache_control != null;
}
