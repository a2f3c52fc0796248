import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { applyCacheBreakpoints, type CacheableRequest, MAX_CACHE_BREAKPOINTS } from "./anthropic-cache-control";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages";

const ephemeral = { type: "ephemeral" };
const marked = (value: unknown) => (value as { cache_control?: unknown }).cache_control !== undefined;

function request(system: string | undefined, tools = 1): CacheableRequest {
  return {
    system,
    tools: Array.from({ length: tools }, (_, index) => ({
      name: `tool_${index}`,
      input_schema: { type: "object" as const },
    })),
  };
}

describe("applyCacheBreakpoints", () => {
  it("keeps to 4, preferring the newest messages, then the instructions, then the facts", () => {
    const { messages, lastBlocks } = convertToAnthropicMessages(undefined, [
      { role: "user", content: "one" },
      { role: "assistant", content: "two" },
      { role: "user", content: "three" },
      { role: "assistant", content: "four" },
      { role: "user", content: "five" },
    ]);
    const body = request("Instructions.\n\nFacts.\n\nSummary.");
    applyCacheBreakpoints(body, { system: [13, 21], messages: [0, 2, 4] }, lastBlocks);

    const blocks = messages.flatMap((message) => message.content as Anthropic.Messages.ContentBlockParam[]);
    expect(blocks.map(marked)).toEqual([true, false, true, false, true]);
    // One slot left: the instructions, shared by every session, before the facts.
    expect(body.system).toEqual([
      { type: "text", text: "Instructions.", cache_control: ephemeral },
      { type: "text", text: "Facts.\n\nSummary." },
    ]);
    expect(body.tools!.some(marked)).toBe(false);
    expect(MAX_CACHE_BREAKPOINTS).toBe(4);
  });

  it("cuts the system prompt at each stable length, the blank line joining sections left out", () => {
    const body = request("Instructions.\n\nFacts.\n\nRecalled.");
    applyCacheBreakpoints(body, { system: [13, 21], messages: [] }, []);
    expect(body.system).toEqual([
      { type: "text", text: "Instructions.", cache_control: ephemeral },
      { type: "text", text: "Facts.", cache_control: ephemeral },
      { type: "text", text: "Recalled." },
    ]);
  });

  it("marks the whole system prompt when it is all stable, and ignores lengths outside it", () => {
    const body = request("Instructions.");
    applyCacheBreakpoints(body, { system: [13, 99, 0], messages: [] }, []);
    expect(body.system).toEqual([{ type: "text", text: "Instructions.", cache_control: ephemeral }]);
  });

  it("marks the last tool when the system prompt has no breakpoint, and skips thinking blocks", () => {
    const { messages, lastBlocks } = convertToAnthropicMessages(undefined, [
      { role: "user", content: "Think." },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hm", providerOptions: { anthropic: { signature: "sig" } } },
          { type: "text", text: "Done." },
        ],
      },
    ]);
    const body = request(undefined, 2);
    applyCacheBreakpoints(body, { system: [], messages: [1] }, lastBlocks);
    expect(body.tools!.map(marked)).toEqual([false, true]);
    expect((messages[1]!.content as Anthropic.Messages.ContentBlockParam[]).map(marked)).toEqual([false, true]);
  });

  it("puts a message's breakpoint on the block it made, where merging moved it", () => {
    // Two tool results and a user message merge into one user message; the tool results stay first.
    const { messages, lastBlocks } = convertToAnthropicMessages(undefined, [
      { role: "user", content: "Go." },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "t", arguments: {} },
          { id: "b", name: "t", arguments: {} },
        ],
      },
      { role: "tool", toolCallId: "a", name: "t", content: "A" },
      { role: "tool", toolCallId: "b", name: "t", content: "B" },
      { role: "user", content: "And?" },
    ]);
    applyCacheBreakpoints(request(undefined, 0), { system: [], messages: [2, 4] }, lastBlocks);
    const merged = messages[2]!.content as Anthropic.Messages.ContentBlockParam[];
    expect(merged.map((block) => [block.type, marked(block)])).toEqual([
      ["tool_result", true],
      ["tool_result", false],
      ["text", true],
    ]);
  });
});
