import { describe, expect, it } from "vitest";
import type { AgentMessage } from "./agent-message";
import { assertToolPairing, findToolPairingIssues, isToolPairingValid } from "./validate-tool-pairing";
import { MISSING_TOOL_RESULT_CONTENT, repairToolPairing } from "./repair-tool-pairing";
import { InvalidMessageError } from "../errors/invalid-message-error";

const user = (content: string): AgentMessage => ({ role: "user", content });
const calls = (...ids: string[]): AgentMessage => ({
  role: "assistant",
  content: "",
  toolCalls: ids.map((id) => ({ id, name: "t", arguments: {} })),
});
const result = (id: string): AgentMessage => ({ role: "tool", toolCallId: id, name: "t", content: `r${id}` });

describe("findToolPairingIssues", () => {
  it("accepts histories that keep the rule", () => {
    expect(isToolPairingValid([])).toBe(true);
    expect(
      isToolPairingValid([user("a"), calls("1", "2"), result("2"), result("1"), { role: "assistant", content: "x" }]),
    ).toBe(true);
    expect(isToolPairingValid([user("a"), calls("1"), result("1"), calls("2"), result("2")])).toBe(true);
  });

  it("names an orphan result, a missing result, a late result and a duplicate id", () => {
    expect(findToolPairingIssues([user("a"), result("9")])).toEqual([
      {
        index: 1,
        path: "toolCallId",
        message: 'tool result "9" has no matching tool call in the assistant message before it',
      },
    ]);
    expect(findToolPairingIssues([calls("1", "2"), result("1"), user("b")])).toEqual([
      { index: 0, path: "toolCalls.1", message: 'tool call "2" has no tool result right after its assistant message' },
    ]);
    // A result separated from its call by another message does not count.
    const late = findToolPairingIssues([calls("1"), user("x"), result("1")]);
    expect(late.map((issue) => issue.index)).toEqual([0, 2]);
    expect(findToolPairingIssues([calls("1", "1"), result("1")])[0]!.message).toMatch(/duplicate tool call id/);
  });

  it("assertToolPairing throws a typed error with the issues", () => {
    try {
      assertToolPairing([result("x")]);
      expect.unreachable();
    } catch (error) {
      expect(InvalidMessageError.isInstance(error)).toBe(true);
      expect((error as InvalidMessageError).issues[0]!.index).toBe(0);
    }
  });
});

describe("repairToolPairing", () => {
  it("returns a valid history unchanged", () => {
    const history = [user("a"), calls("1"), result("1")];
    const repaired = repairToolPairing(history);
    expect(repaired.messages).toEqual(history);
    expect(repaired.messages[1]).toBe(history[1]);
    expect(repaired.droppedResults).toEqual([]);
    expect(repaired.addedResults).toEqual([]);
  });

  it("drops orphans, closes missing results, moves late results and never mutates its input", () => {
    const history = [user("a"), result("orphan"), calls("1", "2"), user("interrupting"), result("1")];
    const snapshot = structuredClone(history);
    const repaired = repairToolPairing(history);
    expect(history).toEqual(snapshot);
    expect(isToolPairingValid(repaired.messages)).toBe(true);
    expect(
      repaired.messages.map((message) => (message.role === "tool" ? `tool:${message.toolCallId}` : message.role)),
    ).toEqual(["user", "assistant", "tool:1", "tool:2", "user"]);
    expect(repaired.droppedResults.map((message) => message.toolCallId)).toEqual(["orphan"]);
    expect(repaired.addedResults).toEqual([
      { role: "tool", toolCallId: "2", name: "t", content: MISSING_TOOL_RESULT_CONTENT },
    ]);
  });

  it("keeps the first of duplicate results", () => {
    const repaired = repairToolPairing([
      calls("1"),
      result("1"),
      { ...result("1"), content: "second" } as AgentMessage,
    ]);
    expect(repaired.messages).toHaveLength(2);
    expect(repaired.messages[1]!.content).toBe("r1");
  });

  it("keeps every real result when a server reuses one call id across turns (call_0 every time)", () => {
    const first = { ...result("call_0"), content: "weather: sunny" } as AgentMessage;
    const second = { ...result("call_0"), content: "weather: rain" } as AgentMessage;
    const history = [
      user("a"),
      calls("call_0"),
      first,
      { role: "assistant", content: "sunny" } as AgentMessage,
      user("b"),
      calls("call_0"),
      second,
    ];
    const repaired = repairToolPairing(history);
    expect(repaired.messages).toEqual(history);
    expect(repaired.addedResults).toEqual([]);
    expect(repaired.droppedResults).toEqual([]);
    // A separated result goes back to the latest earlier call with its id that has none.
    const separated = repairToolPairing([
      user("a"),
      calls("call_0"),
      first,
      user("b"),
      calls("call_0"),
      user("c"),
      second,
    ]);
    expect(separated.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      "weather: sunny",
      "weather: rain",
    ]);
    expect(isToolPairingValid(separated.messages)).toBe(true);
  });

  it("renames a call id repeated within one message, so both results survive and the history becomes valid", () => {
    const history = [
      user("a"),
      calls("dup", "dup"),
      { ...result("dup"), content: "one" } as AgentMessage,
      { ...result("dup"), content: "two" } as AgentMessage,
    ];
    expect(isToolPairingValid(history)).toBe(false);
    const repaired = repairToolPairing(history);
    expect(isToolPairingValid(repaired.messages)).toBe(true);
    expect(repaired.messages[1]).toMatchObject({ toolCalls: [{ id: "dup" }, { id: "dup_2" }] });
    expect(repaired.messages.slice(2)).toMatchObject([
      { toolCallId: "dup", content: "one" },
      { toolCallId: "dup_2", content: "two" },
    ]);
    expect(repaired.droppedResults).toEqual([]);
    // Without a second result the renamed call is closed, never left open.
    const closed = repairToolPairing([calls("dup", "dup"), result("dup")]);
    expect(isToolPairingValid(closed.messages)).toBe(true);
    expect(closed.addedResults.map((message) => message.toolCallId)).toEqual(["dup_2"]);
  });
});
