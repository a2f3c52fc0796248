import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { agentMessageSchema, parseAgentMessages } from "./agent-message";
import { InvalidMessageError } from "../errors/invalid-message-error";

describe("parseAgentMessages", () => {
  it("parses every role and drops unknown fields", () => {
    const parsed = parseAgentMessages([
      { role: "system", content: "s" },
      { id: "u1", role: "user", content: "hi", timestamp: 1, extra: true },
      { role: "assistant", content: "", toolCalls: [{ id: "c", name: "t", arguments: { n: 2 ** 53 } }] },
      { role: "tool", toolCallId: "c", name: "t", content: "ok" },
    ]);
    expect(parsed[1]).toEqual({ id: "u1", role: "user", content: "hi", timestamp: 1 });
    expect(parsed[2]).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c", name: "t", arguments: { n: 2 ** 53 } }],
    });
  });

  it("names the message and the field that are wrong", () => {
    try {
      parseAgentMessages([
        { role: "user", content: "ok" },
        { role: "assistant", content: 5 },
        { role: "tool", content: "x", name: "t" },
        { role: "wizard" },
      ]);
      expect.unreachable();
    } catch (error) {
      expect(InvalidMessageError.isInstance(error)).toBe(true);
      const issues = (error as InvalidMessageError).issues;
      expect(issues.map((issue) => [issue.index, issue.path])).toEqual([
        [1, "content"],
        [2, "toolCallId"],
        [3, "role"],
      ]);
      expect((error as Error).message).toMatch(/^Invalid message: message 1 \(content\)/);
    }
  });

  it("refuses what is not an array", () => {
    expect(() => parseAgentMessages({ role: "user" })).toThrow(/must be an array of messages, got object/);
  });
});

describe("parseAgentMessages: the quick path gives the schema's answer", () => {
  // Candidates near the boundaries of every field: the quick path must accept exactly what the
  // schema accepts and give the same object (same keys in the same order), else leave it to the schema.
  const text = fc.oneof(
    fc.constant(""),
    fc.string({ maxLength: 12 }),
    fc.constant("x".repeat(512)),
    fc.constant("x".repeat(513)),
    fc.constant("y".repeat(257)),
  );
  const anyValue = fc.oneof(
    text,
    fc.integer(),
    fc.double(),
    fc.constant(undefined),
    fc.constant(null),
    fc.constant(-0),
    fc.constant(Infinity),
    fc.constant(NaN),
    fc.boolean(),
    fc.constant([]),
  );
  const toolCall = fc.record(
    {
      id: fc.oneof(text, anyValue),
      name: fc.oneof(text, anyValue),
      arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue()), anyValue),
    },
    { requiredKeys: [] },
  );
  const candidate = fc.record(
    {
      id: fc.oneof(text, anyValue),
      role: fc.oneof(fc.constantFrom("user", "system", "assistant", "tool", "developer"), anyValue),
      content: fc.oneof(text, anyValue),
      timestamp: fc.oneof(fc.nat(), fc.double(), anyValue),
      toolCalls: fc.oneof(fc.array(toolCall, { maxLength: 3 }), anyValue),
      toolCallId: fc.oneof(text, anyValue),
      name: fc.oneof(text, anyValue),
      extra: anyValue,
    },
    { requiredKeys: [] },
  );
  const schemaAnswer = (value: unknown) => {
    const result = agentMessageSchema.safeParse(value);
    return result.success
      ? { ok: true, json: JSON.stringify(result.data), keys: Object.keys(result.data) }
      : { ok: false };
  };
  const ourAnswer = (value: unknown) => {
    try {
      const [message] = parseAgentMessages([value]);
      return { ok: true, json: JSON.stringify(message), keys: Object.keys(message!) };
    } catch (error) {
      if (!InvalidMessageError.isInstance(error)) throw error;
      return { ok: false };
    }
  };

  it("on random records near every field's limits", () => {
    fc.assert(
      fc.property(candidate, (value) => {
        expect(ourAnswer(value)).toEqual(schemaAnswer(value));
      }),
      { numRuns: 3000 },
    );
  });

  it("on well-formed messages of every role (the quick path's own cases)", () => {
    const messages = [
      { id: "u1", role: "user", content: "hi", timestamp: 1, extra: { nested: true } },
      { role: "system", content: "" },
      {
        id: "a1",
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "f", arguments: { a: [1, { b: 2 }] }, more: 1 }],
        timestamp: 0,
      },
      { id: "t1", role: "tool", toolCallId: "c1", name: "f", content: "{}", timestamp: 2 },
      { id: "a2", role: "assistant", content: "done" },
    ];
    for (const message of messages) expect(ourAnswer(message)).toEqual(schemaAnswer(message));
    const [assistant] = parseAgentMessages([messages[2]]);
    expect(assistant).not.toBe(messages[2]);
  });
});
