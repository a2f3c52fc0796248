import { describe, expect, it } from "vitest";
import { MAX_PROVIDER_METADATA_BYTES, readProviderMetadata, uiProviderMetadata } from "./provider-metadata";

describe("readProviderMetadata (a part's providerMetadata from a client)", () => {
  it("copies an object of provider objects as plain JSON into new objects", () => {
    const value = {
      anthropic: { signature: "sig", skipped: undefined },
      openai: { itemId: "rs_1", list: [1, "two", null, { deep: [true] }] },
    };
    const read = readProviderMetadata(value);
    expect(read).toStrictEqual({
      metadata: {
        anthropic: { signature: "sig" },
        openai: { itemId: "rs_1", list: [1, "two", null, { deep: [true] }] },
      },
    });
    // A copy: changing the client's value afterwards changes nothing of what was read.
    value.openai.list.push(5);
    value.anthropic.signature = "changed";
    expect((read as { metadata: Record<string, Record<string, unknown>> }).metadata.anthropic!.signature).toBe("sig");
    expect((read as { metadata: Record<string, Record<string, unknown>> }).metadata.openai!.list).toHaveLength(4);
  });

  it("refuses what is not an object of provider objects, or not plain JSON", () => {
    for (const value of [
      "sig",
      ["a"],
      { anthropic: "sig" },
      { anthropic: ["sig"] },
      { anthropic: null },
      { anthropic: { signature: () => "sig" } },
      { anthropic: { signature: Number.NaN } },
      { anthropic: { at: new Date(0) } },
      { anthropic: { bytes: new Uint8Array(2) } },
      { anthropic: { nested: new (class Signature {})() } },
      JSON.parse('{"__proto__": {"polluted": true}}'),
      JSON.parse('{"anthropic": {"__proto__": {"polluted": true}}}'),
    ]) {
      expect(readProviderMetadata(value), JSON.stringify(value) ?? String(value)).toHaveProperty("problem");
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses more than the byte limit (1 MiB by default), counted as UTF-8 of its JSON", () => {
    expect(MAX_PROVIDER_METADATA_BYTES).toBe(1024 * 1024);
    const exact = { a: { b: "x".repeat(100 - '{"a":{"b":""}}'.length) } };
    expect(readProviderMetadata(exact, 100)).toHaveProperty("metadata");
    expect(readProviderMetadata({ a: { b: `${exact.a.b}x` } }, 100)).toStrictEqual({
      problem: "101 bytes is more than the limit of 100",
    });
    // "é" is two bytes.
    expect(readProviderMetadata({ a: { b: `${exact.a.b.slice(1)}é` } }, 100)).toHaveProperty("problem");
    const redacted = { anthropic: { redactedData: "A".repeat(MAX_PROVIDER_METADATA_BYTES) } };
    expect(readProviderMetadata(redacted)).toHaveProperty("problem");
  });
});

describe("uiProviderMetadata (what the UI stream sends)", () => {
  it("keeps the providers whose options are plain JSON objects, as useChat's schema takes them", () => {
    expect(uiProviderMetadata(undefined)).toBeUndefined();
    expect(uiProviderMetadata({ anthropic: { signature: "s" } })).toStrictEqual({ anthropic: { signature: "s" } });
    expect(
      uiProviderMetadata({ anthropic: { redactedData: "r" }, flat: "value", odd: { when: new Date(0) } }),
    ).toStrictEqual({ anthropic: { redactedData: "r" } });
    expect(uiProviderMetadata({ flat: "value" })).toBeUndefined();
  });
});
