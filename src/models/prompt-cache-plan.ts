import type { PromptCacheBreakpoints } from "./language-model";

/** Anthropic's documented maximum of `cache_control` breakpoints in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** A piece of the system prompt cut at its breakpoints; `cached`: a breakpoint at its end. */
export interface SystemSegment {
  text: string;
  cached: boolean;
}

/** Where a request's breakpoints go, whatever the adapter's wire format. */
export interface CacheBreakpointPlan {
  /** Indexes into the call's messages whose last cacheable block gets a breakpoint, newest first. */
  messages: number[];
  /** The system prompt cut into text blocks at its breakpoints; absent: it stays as it is, unmarked. */
  system?: SystemSegment[];
  /** Whether the last tool definition gets a breakpoint. */
  lastTool: boolean;
}

/** What the request a plan is made for holds. */
export interface CacheBreakpointTarget {
  /** The request's system prompt (`call.system`), if any. */
  system: string | undefined;
  hasTools: boolean;
  /** Whether `messages[index]` made a block that can carry a breakpoint and is not marked yet. */
  canMark: (index: number) => boolean;
  /** Breakpoints left for agentcore (the caller's own take the rest). @default MAX_CACHE_BREAKPOINTS */
  available?: number;
}

/**
 * Where Anthropic-style cache breakpoints go for the call's `cacheBreakpoints`, never more than
 * `available`; the built-in Anthropic adapter and the AI SDK adapter (for `@ai-sdk/anthropic`
 * models) both place them from this plan, so both send the same ones. In order of preference: the
 * messages' breakpoints, newest first (the last message, written for the next request; the end of
 * the previous request, read from the cache even when more than 20 blocks were added since), then
 * the system prompt's stable prefixes (the instructions, shared by every session of the agent; then
 * with the facts block), then, when the system prompt has none, the last tool definition.
 */
export function planCacheBreakpoints(
  breakpoints: PromptCacheBreakpoints,
  target: CacheBreakpointTarget,
): CacheBreakpointPlan {
  let left = Math.max(0, target.available ?? MAX_CACHE_BREAKPOINTS);
  const messages: number[] = [];
  for (const index of [...new Set(breakpoints.messages)].sort((a, b) => b - a)) {
    if (left === 0 || !target.canMark(index)) continue;
    messages.push(index);
    left--;
  }
  const { system } = target;
  const cuts = system === undefined ? [] : systemCuts(system, breakpoints.system).slice(0, left);
  if (system !== undefined && cuts.length > 0)
    return { messages, system: systemSegments(system, cuts), lastTool: false };
  return { messages, lastTool: left > 0 && target.hasTools };
}

/** The valid cut points of `system`, increasing and each inside it. */
function systemCuts(system: string, lengths: readonly number[]): number[] {
  const cuts = [...new Set(lengths)].filter(
    (length) => Number.isInteger(length) && length > 0 && length <= system.length,
  );
  return cuts.sort((a, b) => a - b);
}

/** `system` cut into segments at `cuts`, a breakpoint at the end of each segment before a cut. */
function systemSegments(system: string, cuts: readonly number[]): SystemSegment[] {
  const segments: SystemSegment[] = [];
  let start = 0;
  for (const end of [...cuts, system.length]) {
    // Sections are joined by a blank line: the segment after a cut leaves it out (the API refuses empty text).
    const piece = system.slice(start, end);
    const text = start === 0 ? piece : piece.replace(/^\n\n/, "");
    if (text.trim() !== "") {
      segments.push({ text, cached: !(end === system.length && !cuts.includes(end)) });
    } else if (segments.length > 0 && cuts.includes(end)) {
      segments[segments.length - 1]!.cached = true;
    }
    start = end;
  }
  return segments;
}
