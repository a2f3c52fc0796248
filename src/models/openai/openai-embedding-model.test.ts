import { describe, expect, it } from "vitest";
import { decodeEmbedding } from "./openai-embedding-model";

describe("decodeEmbedding", () => {
  it("decodes base64 little-endian float32 with Web APIs, and passes float arrays through", () => {
    const floats = new Float32Array([0.5, -1.25, 3, 1e-3]);
    let binary = "";
    for (const byte of new Uint8Array(floats.buffer)) binary += String.fromCharCode(byte);
    expect(decodeEmbedding(btoa(binary))).toEqual(Array.from(floats));
    expect(decodeEmbedding([1, 2])).toEqual([1, 2]);
    expect(decodeEmbedding(undefined)).toEqual([]);
  });
});
