import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../messages/agent-message";
import { convertAISDKGenerateResult } from "./ai-sdk-result";
import { convertToAISDKPrompt } from "./convert-to-ai-sdk-prompt";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const pngBase64 = Buffer.from(png).toString("base64");

const toolWithImages: AgentMessage[] = [
  { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "shot", arguments: {} }] },
  {
    role: "tool",
    toolCallId: "c1",
    name: "shot",
    content: [
      { type: "text", text: "taken" },
      { type: "image", image: png },
      { type: "image", image: "https://example.com/a.png" },
    ],
  },
];

describe("convertToAISDKPrompt: content parts", () => {
  it("sends user images and files as file parts: bytes as bytes, base64 and data: URLs as base64, URLs as URL", () => {
    const [message] = convertToAISDKPrompt(undefined, [
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", image: png },
          { type: "image", image: `data:image/webp;base64,${pngBase64}` },
          { type: "image", image: "https://example.com/cat.jpg" },
          { type: "file", data: pngBase64, mediaType: "application/pdf", filename: "r.pdf" },
        ],
      },
    ]);
    expect(message).toEqual({
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "file", data: png, mediaType: "image/png" },
        { type: "file", data: pngBase64, mediaType: "image/webp" },
        { type: "file", data: new URL("https://example.com/cat.jpg"), mediaType: "image/jpeg" },
        { type: "file", data: pngBase64, mediaType: "application/pdf", filename: "r.pdf" },
      ],
    });
  });

  it("tags the data of v4 file parts: { type: data } for bytes and base64, { type: url } for remote URLs", () => {
    const [message] = convertToAISDKPrompt(
      undefined,
      [
        {
          role: "user",
          content: [
            { type: "image", image: png },
            { type: "image", image: `data:image/webp;base64,${pngBase64}` },
            { type: "image", image: "https://example.com/cat.jpg" },
            { type: "file", data: pngBase64, mediaType: "application/pdf", filename: "r.pdf" },
          ],
        },
      ],
      "v4",
    );
    expect(message).toEqual({
      role: "user",
      content: [
        { type: "file", data: { type: "data", data: png }, mediaType: "image/png" },
        { type: "file", data: { type: "data", data: pngBase64 }, mediaType: "image/webp" },
        { type: "file", data: { type: "url", url: new URL("https://example.com/cat.jpg") }, mediaType: "image" },
        { type: "file", data: { type: "data", data: pngBase64 }, mediaType: "application/pdf", filename: "r.pdf" },
      ],
    });
  });

  it("sends reasoning first with its providerOptions as received", () => {
    const [message] = convertToAISDKPrompt(undefined, [
      {
        role: "assistant",
        content: [
          { type: "text", text: "answer" },
          { type: "reasoning", text: "why", providerOptions: { anthropic: { signature: "s" } } },
        ],
      },
    ]);
    expect(message).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "why", providerOptions: { anthropic: { signature: "s" } } },
        { type: "text", text: "answer" },
      ],
    });
  });

  it("sends a tool result with images as content output: v4 file, v3 image-data / image-url, v2 media and URL as text", () => {
    const output = (version: "v2" | "v3") => {
      const tool = convertToAISDKPrompt(undefined, toolWithImages, version)[1] as { content: { output: unknown }[] };
      return tool.content[0]!.output;
    };
    expect(output("v3")).toEqual({
      type: "content",
      value: [
        { type: "text", text: "taken" },
        { type: "image-data", data: pngBase64, mediaType: "image/png" },
        { type: "image-url", url: "https://example.com/a.png" },
      ],
    });
    expect(output("v2")).toEqual({
      type: "content",
      value: [
        { type: "text", text: "taken" },
        { type: "media", data: pngBase64, mediaType: "image/png" },
        { type: "text", text: "https://example.com/a.png" },
      ],
    });
    const v4 = (convertToAISDKPrompt(undefined, toolWithImages, "v4")[1] as { content: { output: unknown }[] })
      .content[0]!.output;
    expect(v4).toEqual({
      type: "content",
      value: [
        { type: "text", text: "taken" },
        { type: "file", data: { type: "data", data: pngBase64 }, mediaType: "image/png" },
        { type: "file", data: { type: "url", url: new URL("https://example.com/a.png") }, mediaType: "image" },
      ],
    });
  });

  it("sends a tool result's files as content output: v4 file, v3 file-data / file-url, v2 media", () => {
    const messages: AgentMessage[] = [
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "rec", arguments: {} }] },
      {
        role: "tool",
        toolCallId: "c1",
        name: "rec",
        content: [
          { type: "file", data: "AAAA", mediaType: "audio/wav", filename: "a.wav" },
          { type: "file", data: "https://example.com/a.pdf", mediaType: "application/pdf" },
        ],
      },
    ];
    const output = (version: "v2" | "v3") =>
      (convertToAISDKPrompt(undefined, messages, version)[1] as { content: { output: unknown }[] }).content[0]!.output;
    expect(output("v3")).toEqual({
      type: "content",
      value: [
        { type: "file-data", data: "AAAA", mediaType: "audio/wav", filename: "a.wav" },
        { type: "file-url", url: "https://example.com/a.pdf", mediaType: "application/pdf" },
      ],
    });
    expect(output("v2")).toEqual({
      type: "content",
      value: [
        { type: "media", data: "AAAA", mediaType: "audio/wav" },
        { type: "text", text: "https://example.com/a.pdf" },
      ],
    });
    const v4 = (convertToAISDKPrompt(undefined, messages, "v4")[1] as { content: { output: unknown }[] }).content[0]!
      .output;
    expect(v4).toEqual({
      type: "content",
      value: [
        { type: "file", data: { type: "data", data: "AAAA" }, mediaType: "audio/wav", filename: "a.wav" },
        {
          type: "file",
          data: { type: "url", url: new URL("https://example.com/a.pdf") },
          mediaType: "application/pdf",
        },
      ],
    });
  });

  it("reads reasoning content of a result with its provider metadata as providerOptions", () => {
    const result = convertAISDKGenerateResult({
      content: [
        { type: "reasoning", text: "r", providerMetadata: { anthropic: { signature: "s" } } } as never,
        { type: "text", text: "t" } as never,
      ],
      finishReason: "stop",
      usage: {},
    });
    expect(result.reasoning).toEqual([
      { type: "reasoning", text: "r", providerOptions: { anthropic: { signature: "s" } } },
    ]);
    expect(result.text).toBe("t");
  });
});
