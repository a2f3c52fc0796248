import { describe, expect, it } from "vitest";
import { encodeBase64 } from "./base64";
import { gifHeader, jpegHeader, pngHeader, webpHeader } from "./__fixtures__/image-headers";
import { imageMediaType, leadingBytes, readImageInfo } from "./image-info";

describe("readImageInfo", () => {
  it("reads the format and size of PNG, JPEG, GIF and WebP headers", () => {
    expect(readImageInfo(pngHeader(1920, 1080))).toEqual({ mediaType: "image/png", width: 1920, height: 1080 });
    expect(readImageInfo(jpegHeader(4032, 3024))).toEqual({ mediaType: "image/jpeg", width: 4032, height: 3024 });
    expect(readImageInfo(jpegHeader(640, 480, 5000))).toEqual({ mediaType: "image/jpeg", width: 640, height: 480 });
    expect(readImageInfo(gifHeader(300, 200))).toEqual({ mediaType: "image/gif", width: 300, height: 200 });
    expect(readImageInfo(webpHeader("VP8 ", 800, 600))).toEqual({ mediaType: "image/webp", width: 800, height: 600 });
    expect(readImageInfo(webpHeader("VP8L", 1024, 768))).toEqual({ mediaType: "image/webp", width: 1024, height: 768 });
    expect(readImageInfo(webpHeader("VP8X", 5000, 3000))).toEqual({
      mediaType: "image/webp",
      width: 5000,
      height: 3000,
    });
  });

  it("gives the format without a size for a truncated header, and nothing for other bytes", () => {
    expect(readImageInfo(pngHeader(10, 10).subarray(0, 12))).toEqual({ mediaType: "image/png" });
    expect(readImageInfo(jpegHeader(10, 10).subarray(0, 24))).toEqual({ mediaType: "image/jpeg" });
    expect(readImageInfo(new TextEncoder().encode("%PDF-1.7"))).toBeUndefined();
    expect(readImageInfo(new Uint8Array(0))).toBeUndefined();
  });

  it("reads base64 and data: URLs by their first bytes, and nothing of a remote URL", () => {
    const base64 = encodeBase64(pngHeader(64, 32));
    expect(readImageInfo(leadingBytes(base64)!)).toMatchObject({ width: 64, height: 32 });
    expect(readImageInfo(leadingBytes(`data:image/png;base64,${base64}`)!)).toMatchObject({ width: 64 });
    expect(leadingBytes("https://example.com/a.png")).toBeUndefined();
    expect(imageMediaType({ image: gifHeader(1, 1) })).toBe("image/gif");
    expect(imageMediaType({ image: gifHeader(1, 1), mediaType: "image/x-custom" })).toBe("image/x-custom");
  });
});
