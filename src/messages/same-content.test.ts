import { describe, expect, it } from "vitest";
import { sameContent } from "./same-content";

describe("sameContent (a retried request's user message against the stored one)", () => {
  it("compares text, and parts by their fields whatever the key order, bytes by value, URLs by address", () => {
    expect(sameContent("hi", "hi")).toBe(true);
    expect(sameContent("hi", "hi ")).toBe(false);
    const bytes = new Uint8Array([1, 2, 3]);
    expect(
      sameContent(
        [
          { type: "text", text: "look" },
          { type: "image", image: bytes, mediaType: "image/png" },
        ],
        [
          { type: "text", text: "look" },
          { mediaType: "image/png", type: "image", image: new Uint8Array([1, 2, 3]) },
        ],
      ),
    ).toBe(true);
    expect(sameContent([{ type: "image", image: bytes }], [{ type: "image", image: new Uint8Array([1, 2, 4]) }])).toBe(
      false,
    );
    expect(sameContent([{ type: "image", image: bytes }], [{ type: "image", image: "AQID" }])).toBe(false);
    expect(
      sameContent(
        [{ type: "file", data: new URL("https://a.example/x.pdf") }],
        [{ type: "file", data: new URL("https://a.example/x.pdf") }],
      ),
    ).toBe(true);
    expect(sameContent([{ type: "text", text: "a", extra: undefined }], [{ type: "text", text: "a" }])).toBe(true);
    expect(
      sameContent(
        [{ type: "text", text: "a" }],
        [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      ),
    ).toBe(false);
    expect(sameContent("a", [{ type: "text", text: "a" }])).toBe(false);
  });
});
