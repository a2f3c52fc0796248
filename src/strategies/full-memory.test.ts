import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { FullMemory } from "./full-memory";

const history = (toolResult: string): AgentMessage[] => [
  { id: "u", role: "user", content: "fetch it" },
  { id: "a", role: "assistant", content: "", toolCalls: [{ id: "c1", name: "fetch", arguments: {} }] },
  { id: "t", role: "tool", toolCallId: "c1", name: "fetch", content: toolResult },
  { id: "a2", role: "assistant", content: "done" },
];

describe("FullMemory", () => {
  it("sends every message, with a 5 MB tool result cut to the default 20,000 characters", () => {
    const stored = history("x".repeat(5_000_000));
    const { messages, dropped } = new FullMemory().apply(stored);
    expect(dropped).toEqual([]);
    expect(messages.map((message) => message.id)).toEqual(["u", "a", "t", "a2"]);
    const tool = messages[2]!;
    expect(tool.content.length).toBeLessThan(20_200);
    expect(tool.content).toContain("[agentcore: tool result cut, 4980000 of 5000000 characters left out]");
    // The stored message is never changed.
    expect(stored[2]!.content.length).toBe(5_000_000);
  });

  it("takes maxToolResultLength (Infinity turns the cut off) and refuses a bad one", () => {
    const stored = history("y".repeat(1_000));
    expect(new FullMemory({ maxToolResultLength: 500 }).apply(stored).messages[2]!.content).toContain(
      "tool result cut",
    );
    expect(new FullMemory({ maxToolResultLength: Infinity }).apply(stored).messages[2]!.content).toBe(
      "y".repeat(1_000),
    );
    expect(() => new FullMemory({ maxToolResultLength: 10 })).toThrow(/maxToolResultLength must be at least 100/);
  });
});
