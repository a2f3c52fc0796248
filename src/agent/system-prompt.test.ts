import { describe, expect, it } from "vitest";
import { stableMessageEnds } from "./system-prompt";

const roles = (...list: string[]) => list.map((role) => ({ role }));

describe("stableMessageEnds", () => {
  it("marks the end of the previous request and the last message", () => {
    expect(stableMessageEnds([])).toEqual([]);
    expect(stableMessageEnds(roles("user"))).toEqual([0]);
    // A new turn: the previous turn's user message (its last request's end), and the new one.
    expect(stableMessageEnds(roles("user", "assistant", "user"))).toEqual([0, 2]);
    // A later step: the previous step's end (the user message), and its tool result.
    expect(stableMessageEnds(roles("user", "assistant", "user", "assistant", "tool"))).toEqual([2, 4]);
  });

  it("with the turn's user message carrying recalled memories, marks the previous turn's end before it instead", () => {
    // The previous requests sent their user messages with their own blocks: no prefix through
    // them comes again. The end of the previous turn (its answer) is written now, read next turn.
    expect(stableMessageEnds(roles("user", "assistant", "user"), 2)).toEqual([1, 2]);
    expect(stableMessageEnds(roles("user", "assistant", "tool", "assistant", "user"), 4)).toEqual([3, 4]);
    expect(stableMessageEnds(roles("user"), 0)).toEqual([0]);
    // A later step of the same turn sent the same block: the previous step's end is read as before.
    expect(stableMessageEnds(roles("user", "assistant", "user", "assistant", "tool"), 2)).toEqual([2, 4]);
  });
});
