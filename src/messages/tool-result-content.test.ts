import { describe, expect, it } from "vitest";
import { resolveMessageLimits } from "./message-limits";
import { fromContentOutput, toContentOutput, toolResultContent } from "./tool-result-content";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const pngBase64 = Buffer.from(png).toString("base64");

describe("toolResultContent", () => {
  it("keeps an image part, an array of parts and the AI SDK's content output as parts", () => {
    expect(toolResultContent({ type: "image", image: png, mediaType: "image/png" })).toEqual({
      content: [{ type: "image", image: png, mediaType: "image/png" }],
    });
    expect(
      toolResultContent([
        { type: "text", text: "a" },
        { type: "image", image: pngBase64 },
      ]),
    ).toEqual({
      content: [
        { type: "text", text: "a" },
        { type: "image", image: pngBase64 },
      ],
    });
    expect(
      toolResultContent({
        type: "content",
        value: [
          { type: "text", text: "t" },
          { type: "media", data: pngBase64, mediaType: "image/png" },
          { type: "image-url", url: "https://example.com/a.png" },
          { type: "file-data", data: "AAAA", mediaType: "audio/wav", filename: "a.wav" },
        ],
      }),
    ).toEqual({
      content: [
        { type: "text", text: "t" },
        { type: "image", image: pngBase64, mediaType: "image/png" },
        { type: "image", image: "https://example.com/a.png" },
        { type: "file", data: "AAAA", mediaType: "audio/wav", filename: "a.wav" },
      ],
    });
  });

  it("bounds a result given as text by maxMessageBytes: the UTF-8 bytes of the string or the JSON", () => {
    const limits = resolveMessageLimits({ maxMessageBytes: 10 });
    expect(toolResultContent("0123456789", limits)).toEqual({ content: "0123456789" });
    expect(toolResultContent("012345678é", limits)).toEqual({
      problem: "the result is 11 bytes, over the message limit of 10 bytes (maxMessageBytes)",
    });
    expect(toolResultContent({ a: "123456" }, limits)).toEqual({
      problem: "the result is 14 bytes, over the message limit of 10 bytes (maxMessageBytes)",
    });
  });

  it("gives any other value as its text, as before", () => {
    expect(toolResultContent("plain")).toEqual({ content: "plain" });
    expect(toolResultContent({ type: "image", url: "x" })).toEqual({ content: '{"type":"image","url":"x"}' });
    expect(toolResultContent([{ type: "text", text: "a" }, 1])).toEqual({ content: '[{"type":"text","text":"a"},1]' });
    expect(toolResultContent([])).toEqual({ content: "[]" });
    expect(toolResultContent({ type: "content", value: [{ type: "custom" }] })).toEqual({
      content: '{"type":"content","value":[{"type":"custom"}]}',
    });
    expect(toolResultContent(undefined)).toEqual({ content: "" });
  });

  it("says what is wrong with an image it cannot keep: malformed data, over the limits", () => {
    expect(toolResultContent({ type: "image", image: "data:image/png;base64,@@" })).toEqual({
      problem: expect.stringMatching(/^part 0\.image is a malformed data: URL/),
    });
    expect(toolResultContent({ type: "image", image: png }, resolveMessageLimits({ maxPartBytes: 4 }))).toEqual({
      problem: "part 0.image is 8 bytes, over the part limit of 4 bytes (maxPartBytes)",
    });
  });
});

describe("the AI SDK's content output both ways", () => {
  it("gives parts back from their content output, bytes as base64", () => {
    const parts = [
      { type: "text" as const, text: "t" },
      { type: "image" as const, image: png },
      { type: "file" as const, data: "AAAA", mediaType: "audio/wav" },
    ];
    const output = toContentOutput(parts);
    expect(output).toEqual({
      type: "content",
      value: [
        { type: "text", text: "t" },
        { type: "media", data: pngBase64, mediaType: "image/png" },
        { type: "media", data: "AAAA", mediaType: "audio/wav" },
      ],
    });
    expect(fromContentOutput(output)).toEqual([
      { type: "text", text: "t" },
      { type: "image", image: pngBase64, mediaType: "image/png" },
      { type: "file", data: "AAAA", mediaType: "audio/wav" },
    ]);
    expect(fromContentOutput({ type: "content", value: [], extra: 1 })).toBeUndefined();
  });
});
