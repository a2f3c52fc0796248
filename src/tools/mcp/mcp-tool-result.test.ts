import { describe, expect, it } from "vitest";
import { mcpToolResultText, mcpToolResultValue, sameData } from "./mcp-tool-result";

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

  it("drops a text block that is the structured content in another formatting or key order", () => {
    const structuredContent = { n: 1, nested: { a: [1, 2], b: null } };
    const reordered = '{\n  "nested": { "b": null, "a": [1, 2.0] },\n  "n": 1e0\n}';
    expect(mcpToolResultValue({ content: [{ type: "text", text: reordered }], structuredContent })).toEqual(
      structuredContent,
    );
    // Different data stays: an array in another order, a missing key.
    expect(
      mcpToolResultValue({
        content: [{ type: "text", text: '{"n":1,"nested":{"a":[2,1],"b":null}}' }],
        structuredContent,
      }),
    ).toBe(`{"n":1,"nested":{"a":[2,1],"b":null}}\n\n${JSON.stringify(structuredContent)}`);
    expect(sameData({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameData([1, { x: "y" }], [1, { x: "y" }])).toBe(true);
    expect(sameData({ a: [] }, { a: {} })).toBe(false);
  });

  it("gives parts when a result carries an image or audio, structured content once as JSON text last", () => {
    const structuredContent = { ok: true };
    expect(
      mcpToolResultValue({
        content: [
          { type: "text", text: '{ "ok": true }' },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/mpeg" },
        ],
        structuredContent,
      }),
    ).toEqual([
      { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
      { type: "file", data: "AAAA", mediaType: "audio/mpeg" },
      { type: "text", text: '{"ok":true}' },
    ]);
  });

  it("names images in an error's text, never their data", () => {
    expect(
      mcpToolResultText({
        content: [
          { type: "text", text: "Render failed:" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
        isError: true,
      }),
    ).toBe("Render failed:\n\n[image (image/png, 8 bytes)]");
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
