import { describe, expect, it } from "vitest";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { parseAgentMessages } from "./agent-message";

const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function issuesOf(input: unknown, options: Parameters<typeof parseAgentMessages>[1] = {}) {
  try {
    parseAgentMessages(input, options);
  } catch (error) {
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    return (error as InvalidMessageError).issues.map(({ index, path, message }) => ({ index, path, message }));
  }
  throw new Error("expected an InvalidMessageError");
}

describe("parseAgentMessages: content parts", () => {
  it("accepts every part type in its role, in the AI SDK's shapes, and drops unknown fields", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const url = new URL("https://example.com/cat.png");
    const parsed = parseAgentMessages([
      {
        role: "user",
        content: [
          { type: "text", text: "look", extra: 1 },
          { type: "image", image: bytes, mediaType: "image/png" },
          { type: "image", image: `data:image/png;base64,${PNG_BASE64}` },
          { type: "image", image: url },
          { type: "image", image: "https://example.com/dog.jpg" },
          { type: "image", image: PNG_BASE64 },
          { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm", providerOptions: { anthropic: { signature: "sig" } } },
          { type: "text", text: "ok" },
        ],
        toolCalls: [{ id: "c1", name: "t", arguments: {} }],
      },
      {
        role: "tool",
        toolCallId: "c1",
        name: "t",
        content: [
          { type: "text", text: "done" },
          { type: "image", image: bytes },
        ],
      },
    ]);
    const user = parsed[0]!.content as { type: string; image?: unknown }[];
    expect(user[0]).toEqual({ type: "text", text: "look" });
    expect(user[1]!.image).toBe(bytes);
    expect(user[3]!.image).toBe(url);
    expect(parsed[1]!.content).toEqual([
      { type: "reasoning", text: "hmm", providerOptions: { anthropic: { signature: "sig" } } },
      { type: "text", text: "ok" },
    ]);
    expect((parsed[2]!.content as unknown[]).length).toBe(2);
  });

  it("turns an ArrayBuffer into a Uint8Array", () => {
    const [message] = parseAgentMessages([
      { role: "user", content: [{ type: "image", image: new Uint8Array([7, 8]).buffer }] },
    ]);
    const image = (message!.content as { image: unknown }[])[0]!.image;
    expect(image).toBeInstanceOf(Uint8Array);
    expect(Array.from(image as Uint8Array)).toEqual([7, 8]);
  });

  it("names an unknown or misplaced part type with what the role allows", () => {
    expect(
      issuesOf([
        { role: "user", content: "fine" },
        {
          role: "user",
          content: [
            { type: "text", text: "a" },
            { type: "video", url: "x" },
          ],
        },
        { role: "assistant", content: [{ type: "image", image: PNG_BASE64 }] },
        { role: "tool", toolCallId: "c", name: "t", content: [{ type: "reasoning", text: "x" }] },
        { role: "system", content: [{ type: "text", text: "no parts in system" }] },
        { role: "user", content: [42] },
        { role: "user", content: 42 },
      ]),
    ).toEqual([
      {
        index: 1,
        path: "content.1.type",
        message: 'part type "video" is not allowed in a user message (expected one of: text, image, file)',
      },
      {
        index: 2,
        path: "content.0.type",
        message: 'part type "image" is not allowed in an assistant message (expected one of: text, reasoning)',
      },
      {
        index: 3,
        path: "content.0.type",
        message: 'part type "reasoning" is not allowed in a tool message (expected one of: text, image, file)',
      },
      { index: 4, path: "content", message: expect.stringMatching(/expected string/) },
      { index: 5, path: "content.0", message: expect.stringMatching(/^number is not allowed in a user message/) },
      { index: 6, path: "content", message: "expected a string or an array of content parts, got number" },
    ]);
  });

  it("refuses malformed data: URLs, bad base64, other URL schemes and empty data, naming the field", () => {
    const image = (value: unknown) => ({ role: "user", content: [{ type: "image", image: value }] });
    const issues = issuesOf([
      image("data:image/png;base64"),
      image("data:image/png,plain-text"),
      image("data:image png;base64,AAAA"),
      image("data:image/png;base64,AA$A"),
      image("not base64!"),
      image("AAAAA"),
      image("ftp://example.com/cat.png"),
      image(new Uint8Array(0)),
      image(""),
      image(42),
      { role: "user", content: [{ type: "file", data: "AAAA" }] },
    ]);
    expect(issues.map((issue) => [issue.index, issue.path])).toEqual([
      [0, "content.0.image"],
      [1, "content.0.image"],
      [2, "content.0.image"],
      [3, "content.0.image"],
      [4, "content.0.image"],
      [5, "content.0.image"],
      [6, "content.0.image"],
      [7, "content.0.image"],
      [8, "content.0.image"],
      [9, "content.0.image"],
      [10, "content.0.mediaType"],
    ]);
    expect(issues[0]!.message).toMatch(/malformed data: URL \(no comma/);
    expect(issues[1]!.message).toMatch(/not base64 \(expected data:<mediaType>;base64,<payload>\)/);
    expect(issues[3]!.message).toMatch(/its payload is not base64/);
    expect(issues[5]!.message).toMatch(/not a whole number of bytes/);
    expect(issues[6]!.message).toMatch(/is a ftp: URL; give bytes, base64, a base64 data: URL or an http\(s\) URL/);
    expect(issues[7]!.message).toMatch(/is empty \(0 bytes\)/);
  });

  it("bounds each part and each message, counting decoded bytes, and says which limit", () => {
    const limits = { maxPartBytes: 10, maxMessageBytes: 15 };
    const bytes = (length: number) => new Uint8Array(length).fill(1);
    const issues = issuesOf(
      [
        { role: "user", content: [{ type: "image", image: bytes(10) }] },
        { role: "user", content: [{ type: "image", image: bytes(11) }] },
        {
          role: "user",
          content: [
            { type: "image", image: bytes(8) },
            { type: "file", data: "AAAAAAAA", mediaType: "application/octet-stream" }, // 6 bytes decoded
            { type: "text", text: "é" }, // 2 bytes
          ],
        },
        { role: "user", content: "x".repeat(16) },
        { role: "user", content: [{ type: "image", image: `data:image/png;base64,${"A".repeat(16)}` }] }, // 12 bytes
      ],
      { limits },
    );
    expect(issues).toEqual([
      { index: 1, path: "content.0.image", message: "is 11 bytes, over the part limit of 10 bytes (maxPartBytes)" },
      { index: 2, path: "content", message: "is 16 bytes, over the message limit of 15 bytes (maxMessageBytes)" },
      { index: 3, path: "content", message: "is 16 bytes, over the message limit of 15 bytes (maxMessageBytes)" },
      { index: 4, path: "content.0.image", message: "is 12 bytes, over the part limit of 10 bytes (maxPartBytes)" },
    ]);
  });

  it("does not count a remote URL's target (never fetched), only its characters", () => {
    const url = "https://example.com/a-huge-image.png";
    expect(() =>
      parseAgentMessages([{ role: "user", content: [{ type: "image", image: url }] }], {
        limits: { maxPartBytes: url.length, maxMessageBytes: url.length },
      }),
    ).not.toThrow();
  });

  it("has defaults of 20 MiB a part and 50 MiB a message", () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    expect(issuesOf([{ role: "user", content: [{ type: "image", image: big }] }])[0]!.message).toMatch(
      /over the part limit of 20971520 bytes/,
    );
  });
});
