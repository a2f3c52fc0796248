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
