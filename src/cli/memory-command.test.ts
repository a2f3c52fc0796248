import { describe, expect, it } from "vitest";
import { InMemoryStore } from "../stores/in-memory-store";
import { showSession } from "./memory-command";
import type { Output } from "./output";

function lines(): { output: Output; printed: string[] } {
  const printed: string[] = [];
  return {
    printed,
    output: { json: false, line: (text = "") => printed.push(text), data: () => {}, table: () => {} },
  };
}

describe("agentcore memory show", () => {
  it("marks a tool call that awaits the user's approval, and only that one", async () => {
    const store = new InMemoryStore();
    await store.setMessages("s", [
      { id: "u1", role: "user", content: "Book for 2", timestamp: 1 },
      {
        id: "a1",
        role: "assistant",
        content: "",
        timestamp: 2,
        toolCalls: [
          { id: "c1", name: "book_table", arguments: { guests: 2 }, approval: { id: "ap1" } },
          { id: "c2", name: "get_weather", arguments: { city: "Oslo" } },
        ],
      },
      { id: "t2", role: "tool", toolCallId: "c2", name: "get_weather", content: "Clear", timestamp: 3 },
      { id: "u2", role: "user", content: "And for 4?", timestamp: 4 },
      {
        id: "a2",
        role: "assistant",
        content: "",
        timestamp: 5,
        toolCalls: [{ id: "c3", name: "book_table", arguments: { guests: 4 }, approval: { id: "ap3" } }],
      },
      { id: "t3", role: "tool", toolCallId: "c3", name: "book_table", content: "Booked", timestamp: 6 },
    ]);
    const { output, printed } = lines();
    await showSession({ store, label: "memory:", close: async () => {} }, output, "s");
    const calls = printed.filter((line) => line.includes("→"));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/book_table\(\{"guests":2\}\) \[awaiting approval\], get_weather\(\{"city":"Oslo"\}\)$/);
    expect(calls[1]).toMatch(/book_table\(\{"guests":4\}\)$/);
  });
});
