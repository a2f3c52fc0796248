import { describe, expect, it } from "vitest";
import { parseAgentMessages } from "./agent-message";
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
    expect(parsed[2]).toEqual({ role: "assistant", content: "", toolCalls: [{ id: "c", name: "t", arguments: { n: 2 ** 53 } }] });
  });

  it("names the message and the field that are wrong", () => {
    try {
      parseAgentMessages([{ role: "user", content: "ok" }, { role: "assistant", content: 5 }, { role: "tool", content: "x", name: "t" }, { role: "wizard" }]);
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
