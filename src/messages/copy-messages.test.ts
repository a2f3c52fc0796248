import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyMessage, copyMessages } from "./copy-messages";

describe("copyMessages", () => {
  it("copies as structuredClone does: equal values, no shared objects", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            {
              id: fc.string(),
              role: fc.constantFrom("user", "assistant", "tool", "system"),
              content: fc.string(),
              timestamp: fc.nat(),
              toolCalls: fc.array(
                fc.record({
                  id: fc.string(),
                  name: fc.string(),
                  arguments: fc.dictionary(fc.string(), fc.jsonValue()),
                }),
              ),
              extra: fc.jsonValue(),
            },
            { requiredKeys: ["role", "content"] },
          ),
          { maxLength: 5 },
        ),
        (messages) => {
          const copies = copyMessages(messages);
          expect(copies).toEqual(structuredClone(messages));
          copies.forEach((copy, index) => {
            expect(copy).not.toBe(messages[index]);
            const original = messages[index] as { toolCalls?: { arguments: object }[] };
            const copied = copy as { toolCalls?: { arguments: object }[] };
            original.toolCalls?.forEach((call, position) => {
              expect(copied.toolCalls![position]).not.toBe(call);
              expect(copied.toolCalls![position]!.arguments).not.toBe(call.arguments);
            });
          });
        },
      ),
    );
  });

  it("falls back to structuredClone for what it cannot copy field by field", () => {
    expect(() => copyMessage({ role: "user", content: "x", callback: () => 1 })).toThrow();
    const date = new Date(5);
    expect(copyMessage(date)).toEqual(date);
    const proto = JSON.parse('{"role":"user","content":"x","__proto__":{"polluted":true}}') as object;
    const copy = copyMessage(proto);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual(structuredClone(proto));
  });
});

describe("copyMessages: content parts", () => {
  it("copies bytes into a plain Uint8Array and URLs into new URLs, sharing nothing", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const buffer = Buffer.from([4, 5]);
    const url = new URL("https://example.com/x.png");
    const message = {
      role: "user",
      content: [
        { type: "text", text: "t", providerOptions: { a: { b: 1 } } },
        { type: "image", image: bytes },
        { type: "image", image: buffer },
        { type: "file", data: url, mediaType: "application/pdf" },
      ],
    };
    const [copy] = copyMessages([message]);
    const parts = copy!.content as Record<string, unknown>[];
    expect(parts[1]!.image).not.toBe(bytes);
    expect(Array.from(parts[1]!.image as Uint8Array)).toEqual([1, 2, 3]);
    expect(Object.getPrototypeOf(parts[2]!.image)).toBe(Uint8Array.prototype);
    expect(parts[3]!.data).not.toBe(url);
    expect((parts[3]!.data as URL).href).toBe(url.href);
    expect(parts[0]!.providerOptions).toEqual({ a: { b: 1 } });
    expect(parts[0]!.providerOptions).not.toBe(message.content[0]!.providerOptions);
    bytes[0] = 9;
    expect((parts[1]!.image as Uint8Array)[0]).toBe(1);
  });
});

describe("copyMessages: metadata", () => {
  it("copies an assistant message's metadata deeply, agentcore's shape and the app's JSON alike; anything else as structuredClone does", () => {
    const step = {
      provider: "openai",
      modelId: "gpt-4o",
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5, reasoningTokens: 1 },
      finishReason: "stop",
      durationMs: 12,
    };
    for (const metadata of [{ agentcore: step }, { agentcore: step, plan: "pro", list: [{ a: 1 }, null] }]) {
      const [copy] = copyMessages([{ role: "assistant", content: "x", metadata }]);
      const copied = (copy as { metadata: typeof metadata }).metadata;
      expect(copied).toEqual(metadata);
      expect(copied).not.toBe(metadata);
      expect(copied.agentcore).not.toBe(metadata.agentcore);
      expect(copied.agentcore.usage).not.toBe(step.usage);
    }
    const at = new Date(5);
    const [odd] = copyMessages([{ role: "assistant", content: "x", metadata: { at } }]);
    expect((odd as { metadata: { at: Date } }).metadata.at).toEqual(at);
    expect((odd as { metadata: { at: Date } }).metadata.at).not.toBe(at);
  });
});
