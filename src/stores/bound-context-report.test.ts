import { describe, expect, it } from "vitest";
import { boundContextReport } from "./bound-context-report";
import type { ContextReport } from "./context-report";

const report = (windowSize: number, leftOutSize: number): ContextReport => ({
  id: "r",
  sessionId: "s",
  runId: "run",
  step: 1,
  createdAt: 1,
  model: "mock/model",
  strategy: "summary",
  window: Array.from({ length: windowSize }, (_, index) => `w-${index}`),
  leftOut: Array.from({ length: leftOutSize }, (_, index) => ({
    messageId: `l-${index}`,
    role: "user" as const,
    reason: "summary" as const,
  })),
  unreadCount: 0,
  facts: [{ key: "name" }],
  recalled: [{ id: "m1", content: "a memory", score: 0.5 }],
  tokens: { system: 1, facts: 1, summary: 1, recalled: 1, window: 1, total: 5 },
});
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("boundContextReport", () => {
  it("returns a report that fits as it is", () => {
    const small = report(10, 10);
    expect(boundContextReport(small, 4096)).toBe(small);
  });

  it("cuts a larger one to the bound: the newest window ids and left-out entries, the full counts, truncated", () => {
    const bounded = boundContextReport(report(5000, 5000), 8192);
    expect(bytes(bounded)).toBeLessThanOrEqual(8192);
    expect(bounded).toMatchObject({ truncated: true, windowCount: 5000, leftOutCount: 5000, factCount: 1 });
    expect(bounded.facts).toEqual([{ key: "name" }]);
    expect(bounded.recalled).toHaveLength(1);
    expect(bounded.window.at(-1)).toBe("w-4999");
    expect(bounded.leftOut.at(-1)!.messageId).toBe("l-4999");
    // Both lists keep a share: consecutive newest entries, in their order.
    expect(bounded.window.length).toBeGreaterThan(50);
    expect(bounded.leftOut.length).toBeGreaterThan(50);
    expect(bounded.window).toEqual(report(5000, 0).window.slice(5000 - bounded.window.length));
    // Nearly all of the room is used.
    expect(bytes(bounded)).toBeGreaterThan(8192 - 64);
  });
});
