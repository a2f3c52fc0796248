import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { estimateMessagesTokens } from "../tokens/estimate-tokens";
import { groupTurns } from "./group-turns";
import { SlidingWindowMemory } from "./sliding-window";
import { TokenWindowMemory } from "./token-window";

const context = { sessionId: "s" };
const ids = (messages: AgentMessage[]) => messages.map((message) => message.id);
/** Tokens of messages the way budgets count them (no reply priming). */
const tokens = (messages: AgentMessage[]) => estimateMessagesTokens(messages) - 3;

function conversation(turns: number, prefix = "t"): AgentMessage[] {
  return Array.from({ length: turns }, (_, index) => [
    { id: `${prefix}${index}u`, role: "user" as const, content: `question ${index}` },
    { id: `${prefix}${index}a`, role: "assistant" as const, content: `answer ${index}` },
  ]).flat();
}

describe("groupTurns", () => {
  it("starts a turn at each user message; leading messages form their own turn", () => {
    const messages: AgentMessage[] = [
      { role: "assistant", content: "Welcome back!" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "", toolCalls: [{ id: "c", name: "x", arguments: {} }] },
      { role: "tool", toolCallId: "c", name: "x", content: "r" },
      { role: "assistant", content: "done" },
      { role: "user", content: "bye" },
    ];
    expect(groupTurns(messages)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 5 },
      { start: 5, end: 6 },
    ]);
    expect(groupTurns([])).toEqual([]);
  });
});

describe("TokenWindowMemory", () => {
  it("over budget: the latest turn keeps its user message and the newest steps that fit, pairs whole", () => {
    const latest: AgentMessage[] = [
      { id: "u", role: "user", content: "Compare the three reports." },
      { id: "a1", role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", arguments: { file: "one" } }] },
      { id: "r1", role: "tool", toolCallId: "c1", name: "read", content: "report one ".repeat(200) },
      {
        id: "a2",
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c2", name: "read", arguments: { file: "two" } },
          { id: "c3", name: "read", arguments: { file: "three" } },
        ],
      },
      { id: "r2", role: "tool", toolCallId: "c2", name: "read", content: "report two ".repeat(50) },
      { id: "r3", role: "tool", toolCallId: "c3", name: "read", content: "report three ".repeat(50) },
    ];
    const history = [...conversation(3), ...latest];
    const budget = tokens([latest[0]!, ...latest.slice(3)]) + 5;
    const result = new TokenWindowMemory({ maxTokens: budget }).apply(history, context);
    expect(ids(result.messages)).toEqual(["u", "a2", "r2", "r3"]);
    expect(findToolPairingIssues(result.messages)).toEqual([]);
    expect(ids(result.dropped)).toEqual([...ids(conversation(3)), "a1", "r1"]);
    expect(result.tokens).toBeLessThanOrEqual(budget);
    // Even when the newest step alone does not fit, it is sent (with its user message).
    const tiny = new TokenWindowMemory({ maxTokens: 10 }).apply(history, context);
    expect(ids(tiny.messages)).toEqual(["u", "a2", "r2", "r3"]);
  });

  it("sends large tool results cut with a marker, counts what is sent, keeps the stored message whole", () => {
    const big = "x".repeat(100) + "y".repeat(50_000) + "z".repeat(100);
    const history: AgentMessage[] = [
      { id: "u", role: "user", content: "read it" },
      { id: "a", role: "assistant", content: "", toolCalls: [{ id: "c", name: "read", arguments: {} }] },
      { id: "r", role: "tool", toolCallId: "c", name: "read", content: big },
      { id: "f", role: "assistant", content: "done" },
    ];
    const result = new TokenWindowMemory({ maxTokens: 100_000, maxToolResultLength: 1000 }).apply(history, context);
    const sent = result.messages[2]! as { content: string };
    expect(sent.content).toContain("[agentcore: tool result cut, 49200 of 50200 characters left out]");
    expect(sent.content.startsWith("x".repeat(100))).toBe(true);
    expect(sent.content.endsWith("z".repeat(100))).toBe(true);
    expect(history[2]!.content).toBe(big);
    expect(result.tokens).toBe(tokens(result.messages));
    expect(result.tokens!).toBeLessThan(1000);
  });

  it("checks the budget against calibrated estimates", () => {
    const history = conversation(20);
    const plain = new TokenWindowMemory({ maxTokens: 200, stablePrefix: false }).apply(history, context);
    const calibrated = new TokenWindowMemory({ maxTokens: 200, stablePrefix: false }).apply(history, {
      ...context,
      calibration: 2,
    });
    expect(calibrated.messages.length).toBeLessThan(plain.messages.length);
    expect(tokens(calibrated.messages) * 2).toBeLessThanOrEqual(200);
  });
});

describe("stable prefixes", () => {
  /** Share of consecutive requests (the conversation growing by one turn) whose first message stayed the same. */
  function stability(strategy: SlidingWindowMemory | TokenWindowMemory, turns: number): number {
    const history = conversation(turns, "s");
    let same = 0;
    let previous: string | undefined;
    for (let length = 2; length <= history.length; length += 2) {
      const first = strategy.apply(history.slice(0, length), context).messages[0]!.id;
      if (first === previous) same++;
      previous = first;
    }
    return same / (turns - 1);
  }

  it("keep the window's first message for several requests instead of moving it every turn", () => {
    expect(stability(new SlidingWindowMemory({ maxTurns: 8, stablePrefix: false }), 60)).toBeLessThan(0.2);
    expect(stability(new SlidingWindowMemory({ maxTurns: 8 }), 60)).toBeGreaterThan(0.4);
    expect(stability(new TokenWindowMemory({ maxTokens: 150, stablePrefix: false }), 60)).toBeLessThan(0.2);
    expect(stability(new TokenWindowMemory({ maxTokens: 150 }), 60)).toBeGreaterThan(0.6);
  });

  it("never go over the turn limit", () => {
    const strategy = new SlidingWindowMemory({ maxTurns: 8 });
    for (let length = 2; length <= 60; length += 2) {
      const kept = groupTurns(strategy.apply(conversation(30).slice(0, length), context).messages).length;
      expect(kept).toBeLessThanOrEqual(8);
      expect(kept).toBeGreaterThanOrEqual(Math.min(length / 2, 7));
    }
  });
});
