import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8ByteLength } from "./utf8-byte-length";

describe("utf8ByteLength", () => {
  it("equals the length TextEncoder writes, lone surrogates included", () => {
    for (const text of ["", "abc", "über", "日本", "😀", "\ud800", "a\udc00b", "\ud83d\ude00\ud83d"]) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length);
    }
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        (text) => utf8ByteLength(text) === new TextEncoder().encode(text).length,
      ),
    );
  });
});
