import { describe, expect, it } from "vitest";
import { mcpToolResultText, mcpToolResultValue } from "./mcp-tool-result";

describe("mcpToolResultValue", () => {
  it("joins text blocks", () => {
    expect(
      mcpToolResultValue({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toBe("a\n\nb");
    expect(mcpToolResultValue({ content: [] })).toBe("");
  });

  it("gives structured content alone, or with text that only repeats it, as the value", () => {
    const structuredContent = { n: 1, list: ["x"] };
    expect(mcpToolResultValue({ content: [], structuredContent })).toEqual(structuredContent);
    expect(
      mcpToolResultValue({ content: [{ type: "text", text: '{ "n": 1, "list": ["x"] }' }], structuredContent }),
    ).toEqual(structuredContent);
  });

  it("keeps other text beside the structured content, which comes last as JSON", () => {
    const structuredContent = { n: 1 };
    expect(
      mcpToolResultValue({
        content: [
          { type: "text", text: "One result." },
          { type: "text", text: '{"n":1}' },
        ],
        structuredContent,
      }),
    ).toBe('One result.\n\n{"n":1}');
  });

  it("reads the result of the 2024-10-07 protocol", () => {
    expect(mcpToolResultValue({ toolResult: { ok: true } } as never)).toEqual({ ok: true });
  });

  it("names blocks it does not know", () => {
    expect(mcpToolResultValue({ content: [{ type: "video", uri: "x" } as never] })).toBe("[video content not shown]");
  });

  it("gives an error result's text, structured content as JSON", () => {
    expect(mcpToolResultText({ content: [], structuredContent: { code: 404 }, isError: true })).toBe('{"code":404}');
  });
});
