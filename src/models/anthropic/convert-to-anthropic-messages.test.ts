import { describe, expect, it } from "vitest";
import { convertToAnthropicMessages, convertToAnthropicTools } from "./convert-to-anthropic-messages";

describe("convertToAnthropicMessages", () => {
  it("puts system prompt and system messages top-level and merges same-role runs", () => {
    const { system, messages } = convertToAnthropicMessages("Be brief.", [
      { role: "system", content: "Facts: none." },
      { role: "user", content: "a" },
      { role: "user", content: "b" },
      { role: "assistant", content: "" },
      { role: "assistant", content: "c", toolCalls: [{ id: "t1", name: "f", arguments: { x: 1 } }] },
      { role: "tool", toolCallId: "t1", name: "f", content: "1" },
      { role: "user", content: "d" },
    ]);
    expect(system).toBe("Be brief.\n\nFacts: none.");
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "c" },
          { type: "tool_use", id: "t1", name: "f", input: { x: 1 } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "1" },
          { type: "text", text: "d" },
        ],
      },
    ]);
  });

  it("keeps tool_result blocks ahead of text when results follow a user message", () => {
    const { messages } = convertToAnthropicMessages(undefined, [
      { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "f", arguments: {} }] },
      { role: "user", content: "interrupting" },
      { role: "tool", toolCallId: "t1", name: "f", content: "r" },
    ]);
    expect(messages[1]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "r" },
        { type: "text", text: "interrupting" },
      ],
    });
  });

  it("sends no system and no tools when there are none", () => {
    expect(convertToAnthropicMessages("", [{ role: "user", content: "x" }]).system).toBeUndefined();
    expect(convertToAnthropicTools([])).toBeUndefined();
  });
});

describe("convertToAnthropicMessages: thinking", () => {
  it("keeps thinking blocks first when two assistant messages in a row are merged", () => {
    const { messages } = convertToAnthropicMessages(undefined, [
      { role: "user", content: "u" },
      { role: "assistant", content: "partial" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "t", providerOptions: { anthropic: { signature: "s" } } },
          { type: "text", text: "a" },
        ],
      },
    ]);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "t", signature: "s" },
        { type: "text", text: "partial" },
        { type: "text", text: "a" },
      ],
    });
  });
});
