import { describe, expect, it } from "vitest";
import { convertToOpenAIMessages, convertToOpenAITools } from "./convert-to-openai-messages";

describe("convertToOpenAIMessages", () => {
  it("maps every role, system prompt first, tool arguments as JSON text", () => {
    expect(
      convertToOpenAIMessages("sys", [
        { role: "user", content: "u" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f", arguments: { a: [1, "x"] } }] },
        { role: "tool", toolCallId: "c1", name: "f", content: "ok" },
        { role: "assistant", content: "done" },
      ]),
    ).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":[1,"x"]}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("omits an empty tool list and an empty system prompt", () => {
    expect(convertToOpenAITools([])).toBeUndefined();
    expect(convertToOpenAIMessages("", [{ role: "user", content: "u" }])).toEqual([{ role: "user", content: "u" }]);
  });
});
