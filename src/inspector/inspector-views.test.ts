import { describe, expect, it } from "vitest";
import { messageView } from "./inspector-views";

describe("messageView", () => {
  it("marks a tool call that asked the user's approval, so the page can say it awaits it", () => {
    const view = messageView(
      {
        id: "a1",
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "book_table", arguments: { guests: 2 }, approval: { id: "ap1" } },
          { id: "c2", name: "get_weather", arguments: { city: "Oslo" } },
        ],
      },
      0,
    );
    expect(view.toolCalls).toEqual([
      { id: "c1", name: "book_table", arguments: '{\n  "guests": 2\n}', askedApproval: true },
      { id: "c2", name: "get_weather", arguments: '{\n  "city": "Oslo"\n}' },
    ]);
  });
});
